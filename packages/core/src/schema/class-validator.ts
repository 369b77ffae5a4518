/**
 * The ONE place that knows class-validator's internals: its metadata storage and the
 * layout of its CommonJS build.
 *
 * class-validator keeps every decorator's arguments in a process-wide storage whose shape
 * is internal and has changed between releases. Everything else in Toolwright sees the
 * neutral `DtoProperty` / `DtoConstraint` records below, so a class-validator upgrade
 * touches this file only.
 *
 * class-validator's entry point loads all of its 110+ decorators, validator.js and
 * libphonenumber-js (about 320 modules, over 100 ms on a small machine). Reading
 * the storage and loading single decorators (for `@toolwright/core/dto`) go through the
 * modules that hold them instead. Each falls back to the entry point if a release moves them.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { MetadataStorage } from 'class-validator';
import type { Class } from '../metadata/Class';

type ClassValidatorModule = typeof import('class-validator');
let classValidator: ClassValidatorModule | undefined;

/** The whole library, for `validate()`: loaded on first use, by DTOs that need class-validator's own checks. */
export function loadClassValidator(): ClassValidatorModule {
  return (classValidator ??= require('class-validator') as ClassValidatorModule);
}

/** One export of class-validator, from `file` (under its `cjs/` folder) if it has it, else from the entry point. */
function loadExport<K extends keyof ClassValidatorModule>(name: K, file: string | undefined): ClassValidatorModule[K] {
  const dir = cjsDir();
  if (file !== undefined && dir !== undefined) {
    try {
      // An absolute path with its extension: no search through node_modules folders, no failed stat, for each file.
      const found = (require(join(dir, `${file}.js`)) as Partial<ClassValidatorModule>)[name];
      if (found !== undefined) return found as ClassValidatorModule[K];
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  return loadClassValidator()[name];
}

let storage: MetadataStorage | undefined;
let customValidation: string | undefined;

function metadataStorage(): MetadataStorage {
  return (storage ??= loadExport('getMetadataStorage', 'metadata/MetadataStorage')());
}

/** The folders of `cjs/decorator/` that hold one decorator per file, named after it. */
const DECORATOR_FOLDERS = ['common', 'typechecker', 'string', 'number', 'array', 'object', 'date'];
/** Decorators whose file is not named after them. */
const DECORATOR_FILES: Readonly<Record<string, string>> = {
  ValidatorConstraint: 'decorator/common/Validate',
  IsMACAddress: 'decorator/string/IsMacAddress',
  IsTaxId: 'decorator/string/is-tax-id',
  IsISO4217CurrencyCode: 'decorator/string/is-iso4217-currency-code',
  IsISO6391: 'decorator/string/isISO6391',
  registerDecorator: 'register-decorator',
};

/** Decorator factories (and `registerDecorator`), the only class-validator exports `@toolwright/core/dto` offers. */
export type ClassValidatorDecoratorName = {
  [K in keyof ClassValidatorModule]: K extends `${Uppercase<string>}${string}` | 'registerDecorator' ? K : never;
}[keyof ClassValidatorModule];

/** class-validator's own `name`, loaded from the one module that defines it. */
export function loadClassValidatorDecorator<K extends ClassValidatorDecoratorName>(name: K): ClassValidatorModule[K] {
  return loadExport(name, DECORATOR_FILES[name] ?? findDecoratorFile(name));
}

let cjs: string | null | undefined;

/** class-validator's `cjs/` folder, or undefined if its package.json cannot be resolved. */
function cjsDir(): string | undefined {
  // A bundle (a Worker) has no require.resolve. Asked first, not caught: each exception thrown
  // makes the runtime work out a source position for every frame of its stack.
  if (cjs === undefined && typeof require.resolve !== 'function') cjs = null;
  if (cjs === undefined) {
    try {
      // class-validator has no `exports` map, so its package.json resolves like any file in it.
      cjs = join(dirname(require.resolve('class-validator/package.json')), 'cjs');
    } catch {
      cjs = null;
    }
  }
  return cjs ?? undefined;
}

/** `decorator/<folder>/<name>`, found with a stat per folder: far cheaper than a `require` that fails. */
function findDecoratorFile(name: string): string | undefined {
  const dir = cjsDir();
  const folder = dir === undefined ? undefined : DECORATOR_FOLDERS.find((f) => existsSync(join(dir, 'decorator', f, `${name}.js`)));
  return folder && `decorator/${folder}/${name}`;
}

/** class-validator does not export this record's type from its entry point; derive it from one that it does. */
type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

/** One class-validator decorator on one property, in neutral form. */
export interface DtoConstraint {
  /**
   * The validator's name (`'isString'`, `'min'`, `'isIn'`, `'isOptional'`, ...), or for
   * class-validator's system validations their type: `'nestedValidation'` (@ValidateNested),
   * `'isDefined'`, `'conditionalValidation'` (@ValidateIf), `'whitelistValidation'` (@Allow),
   * `'promiseValidation'`. A `@Validate(SomeConstraint)` reports the constraint's name.
   */
  readonly kind: string;
  /** The decorator's arguments as class-validator stored them (e.g. `[5]` for `@Min(5)`). */
  readonly args: readonly unknown[];
  /** `{ each: true }`: the constraint applies to every element of an array value. */
  readonly each: boolean;
  /** A custom message given as a string (function messages are not carried). */
  readonly message?: string;
}

/** One validated property of a DTO class with all its constraints. */
export interface DtoProperty {
  readonly name: string;
  readonly constraints: readonly DtoConstraint[];
}

/**
 * The validated properties of `cls`, inherited ones included, base-class properties first,
 * each class's properties in declaration order.
 *
 * The constraint set per property is exactly the one `validate()` applies: we ask the
 * storage with the same arguments class-validator's executor uses (no groups, `always`
 * off), so its inheritance rule holds here too: a subclass's decorator replaces the
 * parent's decorators *of the same validation type* on that property (own class wins).
 */
export function readDtoProperties(cls: Class): DtoProperty[] {
  const metadatas = targetMetadatas(cls);
  const byName = new Map<string, DtoConstraint[]>();
  for (const metadata of metadatas) {
    const list = byName.get(metadata.propertyName) ?? [];
    list.push(toConstraint(metadata));
    byName.set(metadata.propertyName, list);
  }
  return declarationOrder(cls)
    .filter((name) => byName.has(name))
    .map((name) => Object.freeze({ name, constraints: Object.freeze(byName.get(name)!) }));
}

/** Whether `cls` (or a base class) carries any class-validator decorator at all. */
export function hasClassValidatorMetadata(cls: Class): boolean {
  return targetMetadatas(cls).length > 0;
}

function targetMetadatas(cls: Class): ValidationMetadata[] {
  // '' as target schema: we validate classes, never named schemas, so nothing matches it.
  return metadataStorage().getTargetValidationMetadatas(cls, '', false, false);
}

function toConstraint(metadata: ValidationMetadata): DtoConstraint {
  const constraint: DtoConstraint = {
    kind: kindOf(metadata),
    args: Object.freeze([...(metadata.constraints ?? [])]),
    each: metadata.each === true,
    ...(typeof metadata.message === 'string' ? { message: metadata.message } : {}),
  };
  return Object.freeze(constraint);
}

function kindOf(metadata: ValidationMetadata): string {
  if (metadata.name) return metadata.name;
  customValidation ??= loadExport('ValidationTypes', 'validation/ValidationTypes').CUSTOM_VALIDATION;
  if (metadata.type === customValidation && metadata.constraintCls) {
    // @Validate(SomeConstraint): the name lives on the constraint class's own record.
    const [registered] = metadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
    if (registered?.name) return registered.name;
  }
  return metadata.type;
}

/**
 * Property names, base class first. Decorators run in source order, so the first time a
 * name appears among a class's own metadata is its position in that class.
 */
function declarationOrder(cls: Class): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  for (const klass of prototypeChain(cls).reverse()) {
    for (const metadata of targetMetadatas(klass)) {
      if (metadata.target !== klass || seen.has(metadata.propertyName)) continue;
      seen.add(metadata.propertyName);
      names.push(metadata.propertyName);
    }
  }
  return names;
}

/** `cls` and its base classes, most derived first. */
function prototypeChain(cls: Class): Class[] {
  const chain: Class[] = [];
  for (let klass: unknown = cls; typeof klass === 'function' && klass !== Function.prototype; klass = Object.getPrototypeOf(klass)) {
    chain.push(klass as Class);
  }
  return chain;
}
