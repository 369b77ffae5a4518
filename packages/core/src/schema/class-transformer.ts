/**
 * The ONE place that reads class-transformer's internal metadata storage.
 *
 * class-transformer 0.5.1 records `@Type`, `@Expose` and `@Exclude` in a singleton it does
 * not export from its entry point; it lives in `class-transformer/cjs/storage`. We load the
 * CommonJS build on purpose: it is the copy `plainToInstance` (package `main`) writes to and
 * reads from. A bundler that picks the `module` (esm5) build would create a second,
 * empty storage.
 */
import type { MetadataStorage } from 'class-transformer/types/MetadataStorage';
import type { Class } from '../metadata/Class';

/**
 * The subpath ships no typings and TypeScript refuses a `declare module` augmentation of
 * an untyped module from inside a module file (TS2665), so the typing is given here, at
 * the single `require` that loads it.
 */
interface ClassTransformerStorageModule {
  readonly defaultMetadataStorage: MetadataStorage;
}

let loaded: MetadataStorage | undefined;

/** Loaded on first use, so an app without DTOs never loads class-transformer. */
function storage(): MetadataStorage {
  return (loaded ??= (require('class-transformer/cjs/storage') as ClassTransformerStorageModule).defaultMetadataStorage);
}

/** The property decorators `@toolwright/core/dto` offers. */
export type ClassTransformerDecoratorName = 'Type' | 'Expose' | 'Exclude' | 'Transform';
type ClassTransformerModule = typeof import('class-transformer');

/**
 * class-transformer's own `name`, from `cjs/decorators/<name>.decorator` rather than its
 * entry point (34 modules), or from the entry point if a release moves it.
 */
export function loadClassTransformerDecorator<K extends ClassTransformerDecoratorName>(name: K): ClassTransformerModule[K] {
  try {
    const found = (require(`class-transformer/cjs/decorators/${name.toLowerCase()}.decorator`) as Partial<ClassTransformerModule>)[name];
    if (found) return found as ClassTransformerModule[K];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
  }
  return (require('class-transformer') as ClassTransformerModule)[name];
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

/** Whether `@Exclude()` drops `propertyName` when a plain object is turned into an instance. */
export function isExcludedFromInput(target: Class, propertyName: string): boolean {
  const exclude = storage().findExcludeMetadata(target, propertyName);
  return exclude !== undefined && exclude.options?.toPlainOnly !== true;
}

/** Whether `@Transform(...)` changes `propertyName` when a plain object is turned into an instance. */
export function hasInputTransform(target: Class, propertyName: string): boolean {
  // 0 is TransformationType.PLAIN_TO_CLASS; the enum lives in the module we load lazily.
  return storage().findTransformMetadatas(target, propertyName, 0).length > 0;
}
