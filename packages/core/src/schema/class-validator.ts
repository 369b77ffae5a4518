/**
 * The ONE place that reads class-validator's metadata storage.
 *
 * class-validator keeps every decorator's arguments in a process-wide storage whose shape
 * is internal and has changed between releases. Everything else in Toolwright sees the
 * neutral `DtoProperty` / `DtoConstraint` records below, so a class-validator upgrade
 * touches this file only.
 */
import type { MetadataStorage } from 'class-validator';
import type { Class } from '../metadata/Class';

type ClassValidatorModule = typeof import('class-validator');
let classValidator: ClassValidatorModule | undefined;

/** Loaded on first use, so an app without DTOs never pays class-validator's startup time and memory. */
export function loadClassValidator(): ClassValidatorModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (classValidator ??= require('class-validator') as ClassValidatorModule);
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
  return loadClassValidator().getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
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
  if (metadata.type === loadClassValidator().ValidationTypes.CUSTOM_VALIDATION && metadata.constraintCls) {
    // @Validate(SomeConstraint): the name lives on the constraint class's own record.
    const [registered] = loadClassValidator().getMetadataStorage().getTargetValidatorConstraints(metadata.constraintCls);
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
