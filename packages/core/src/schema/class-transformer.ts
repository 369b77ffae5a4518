/**
 * The ONE place that knows class-transformer's internals: its metadata storage and the
 * layout of its CommonJS build.
 *
 * class-transformer 0.5.1 records `@Type`, `@Expose` and `@Exclude` in a singleton it does
 * not export from its entry point; it lives in `class-transformer/cjs/storage`. Everything
 * Toolwright takes from class-transformer (that storage, the decorators of
 * `@toolwright/core/dto`, `plainToInstance`) comes from the CommonJS build, by literal paths:
 *
 * - one build, so one storage. The package also ships an ES module build (its `module`
 *   field) with a storage of its own; a bundler that picked it for one of these and not the
 *   others would write metadata where the schema and `plainToInstance` never read it;
 * - literal paths, so a bundler (a Worker's bundle) holds every module. A computed
 *   `require()` is left to the runtime, and a Worker has none.
 */
import type { ClassTransformer, ClassTransformOptions } from 'class-transformer';
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { Class } from '../metadata/Class';

/**
 * The subpaths ship no typings and TypeScript refuses a `declare module` augmentation of
 * an untyped module from inside a module file (TS2665), so the typings are given here, at
 * the `require`s that load them.
 */
interface ClassTransformerStorageModule {
  readonly defaultMetadataStorage: MetadataStorage;
}
interface ClassTransformerClassModule {
  readonly ClassTransformer: new () => Pick<ClassTransformer, 'plainToInstance'>;
}
type ClassTransformerModule = typeof import('class-transformer');

/** A module of the CommonJS build, or undefined when a release has moved it (then the entry point serves). */
function fromCjsBuild<T>(load: () => unknown): Partial<T> | undefined {
  try {
    return (load() as Partial<T> | undefined) ?? undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    return undefined;
  }
}

let loaded: MetadataStorage | undefined;

/** Loaded on first use, so an app without DTOs never loads class-transformer. */
function storage(): MetadataStorage {
  return (loaded ??= (require('class-transformer/cjs/storage') as ClassTransformerStorageModule).defaultMetadataStorage);
}

/** The property decorators `@toolwright/core/dto` offers. */
export type ClassTransformerDecoratorName = 'Type' | 'Expose' | 'Exclude' | 'Transform';

/** The module of each decorator in the CommonJS build, each `require` with a literal path (see the file's comment). */
const DECORATOR_MODULES: { readonly [K in ClassTransformerDecoratorName]: () => unknown } = {
  Type: () => require('class-transformer/cjs/decorators/type.decorator'),
  Expose: () => require('class-transformer/cjs/decorators/expose.decorator'),
  Exclude: () => require('class-transformer/cjs/decorators/exclude.decorator'),
  Transform: () => require('class-transformer/cjs/decorators/transform.decorator'),
};

/**
 * class-transformer's own `name`, from `cjs/decorators/<name>.decorator` rather than its
 * entry point (34 modules), or from the entry point if a release moves it.
 */
export function loadClassTransformerDecorator<K extends ClassTransformerDecoratorName>(name: K): ClassTransformerModule[K] {
  const found = fromCjsBuild<ClassTransformerModule>(DECORATOR_MODULES[name])?.[name];
  return found ?? (require('class-transformer') as ClassTransformerModule)[name];
}

/** Turns a JSON value into an instance of `cls` (nested classes and dates as `@Type` says). */
export type PlainToInstance = (cls: Class, plain: unknown, options: ClassTransformOptions) => unknown;

/**
 * class-transformer's `plainToInstance`, from the build whose storage the decorators write to
 * (`cjs/ClassTransformer`: 10 modules where the entry point loads 34).
 */
export function loadPlainToInstance(): PlainToInstance {
  const Transformer = fromCjsBuild<ClassTransformerClassModule>(() => require('class-transformer/cjs/ClassTransformer'))?.ClassTransformer;
  if (Transformer === undefined) return (require('class-transformer') as ClassTransformerModule).plainToInstance as PlainToInstance;
  const transformer = new Transformer();
  return (cls, plain, options) => transformer.plainToInstance(cls, plain, options);
}

/** What `@Type(...)` says about a property. */
export interface TypeHint {
  /**
   * Calls the `@Type(() => X)` function. class-transformer passes the value being
   * transformed; at build time there is none, so a function that depends on it throws.
   */
  readonly resolve: () => unknown;
  /** The discriminator of `@Type(() => Base, { discriminator, keepDiscriminatorProperty })`, if any. */
  readonly discriminator?: Discriminator;
}

/** Which subclass `plainToInstance` builds: the one whose `name` the value's `property` holds. */
export interface Discriminator {
  readonly property: string;
  readonly subTypes: readonly { readonly name: string; readonly value: Class }[];
  /** Whether the instance keeps the property (class-transformer deletes it otherwise). */
  readonly keep: boolean;
}

/** The `@Type(...)` of `propertyName` on `target` or a base class, if any. */
export function findTypeMetadata(target: Class, propertyName: string): TypeHint | undefined {
  const metadata = storage().findTypeMetadata(target, propertyName);
  if (!metadata) return undefined;
  const { typeFunction, reflectedType, options } = metadata;
  const discriminator = options?.discriminator;
  return Object.freeze({
    resolve: () => (typeFunction ? typeFunction() : reflectedType) as unknown,
    ...(discriminator && {
      discriminator: Object.freeze({
        property: discriminator.property,
        subTypes: Object.freeze(discriminator.subTypes.map((t) => Object.freeze({ name: t.name, value: t.value as Class }))),
        keep: options?.keepDiscriminatorProperty === true,
      }),
    }),
  });
}

/**
 * The key a client sends for `propertyName`: `@Expose({ name: 'first_name' })` makes
 * `plainToInstance` read `first_name` into `firstName`.
 */
export function inputName(target: Class, propertyName: string): string {
  const expose = storage().findExposeMetadata(target, propertyName);
  const name = expose && expose.options?.toPlainOnly !== true ? expose.options?.name : undefined;
  return name ?? propertyName;
}

/**
 * Whether `plainToInstance` drops `propertyName`: its own `@Exclude()`, or the class's `@Exclude()`
 * (class-transformer's 'excludeAll': only `@Expose()`-d properties are read) without an `@Expose()`.
 */
export function isExcludedFromInput(target: Class, propertyName: string): boolean {
  return excludedBy(target, propertyName, 'toPlainOnly') !== undefined;
}

/**
 * The class-transformer decorator that would change `propertyName` when an instance is turned
 * into a plain object: an `@Exclude()` (its own or its class's), or `@Expose({ name })` under
 * another name; undefined if none.
 */
export function outputChange(target: Class, propertyName: string): { readonly decorator: string; readonly excluded: boolean } | undefined {
  const excluded = excludedBy(target, propertyName, 'toClassOnly');
  if (excluded) return { decorator: excluded, excluded: true };
  const expose = storage().findExposeMetadata(target, propertyName);
  const name = expose && expose.options?.toClassOnly !== true ? expose.options?.name : undefined;
  return name !== undefined && name !== propertyName ? { decorator: `its @Expose({ name: ${JSON.stringify(name)} })`, excluded: false } : undefined;
}

/**
 * Which `@Exclude()` leaves `propertyName` out in one direction (`other` names the option that
 * limits a decorator to the opposite one): the property's own, or its class's when the property
 * has no `@Expose()` for this direction. The class's strategy is read on `target` itself, as
 * class-transformer reads it.
 */
function excludedBy(target: Class, propertyName: string, other: 'toPlainOnly' | 'toClassOnly'): string | undefined {
  const exclude = storage().findExcludeMetadata(target, propertyName);
  if (exclude && exclude.options?.[other] !== true) return 'its @Exclude()';
  if (storage().getStrategy(target) !== 'excludeAll') return undefined;
  const expose = storage().findExposeMetadata(target, propertyName);
  return expose && expose.options?.[other] !== true ? undefined : "its class's @Exclude() (it has no @Expose())";
}

/** Whether `@Transform(...)` changes `propertyName` when a plain object is turned into an instance. */
export function hasInputTransform(target: Class, propertyName: string): boolean {
  // 0 is TransformationType.PLAIN_TO_CLASS; the enum lives in the module we load lazily.
  return storage().findTransformMetadatas(target, propertyName, 0).length > 0;
}
