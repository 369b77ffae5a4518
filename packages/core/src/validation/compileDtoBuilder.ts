import type { Class } from '../metadata/Class';
import { findTypeMetadata, hasInputTransform, inputName, isExcludedFromInput, type Discriminator } from '../schema/class-transformer';
import { readDtoProperties, type DtoConstraint } from '../schema/class-validator';
import { readPropertyDocs } from '../schema/propertyDocs';

/** Builds a DTO instance from a value the DTO's schema has already accepted. */
export type DtoBuilder = (value: Record<string, unknown>) => object;

/**
 * Constraints whose whole meaning the advertised JSON Schema carries. Once the compiled
 * schema check has passed, class-validator would find nothing more to reject.
 */
const EXPRESSED_BY_SCHEMA = new Set([
  'isString',
  'isInt',
  'isBoolean',
  'min',
  'max',
  'minLength',
  'maxLength',
  'isLength',
  'isIn',
  'isEnum',
  'equals',
  'isOptional',
  'isDefined',
  'nestedValidation',
  'isArray',
  'arrayMinSize',
  'arrayMaxSize',
  'arrayNotEmpty',
  'isPositive',
  'isNegative',
  'isObject',
  'isDate',
  'whitelistValidation',
]);

/** With `@Property({ schema })` the schema is the app's own: only constraints that accept every value stay implied. */
const ACCEPT_ANY = new Set(['whitelistValidation', 'isOptional', 'isDefined']);

/**
 * The fast path for `@Args` DTOs: when every constraint of the class (and of the classes
 * nested in it) is expressed by its schema and class-transformer does nothing beyond
 * `@Type`, a call validates with the compiled schema only and builds the instances here,
 * skipping `plainToInstance` and class-validator's `validate`, which dominate a DTO call's
 * cost. Returns undefined when the class needs the libraries (custom or format validators,
 * `@Transform`, `@Expose` renames, `@Exclude`).
 */
export function compileDtoBuilder(cls: Class): DtoBuilder | undefined {
  return compile(cls, new Map());
}

type Convert = (value: unknown) => unknown;

/** One class's builder; filled in after its properties, so recursive references can point at it first. */
interface Cell {
  build?: DtoBuilder;
}

function compile(cls: Class, cells: Map<Class, Cell>): DtoBuilder | undefined {
  const known = cells.get(cls);
  if (known) return known.build ?? ((value) => known.build!(value));
  const cell: Cell = {};
  cells.set(cls, cell);
  const props: { name: string; convert: Convert | undefined }[] = [];
  for (const prop of readDtoProperties(cls)) {
    const given = readPropertyDocs(cls, prop.name)?.schema !== undefined;
    if (!prop.constraints.every(given ? (c) => ACCEPT_ANY.has(c.kind) : isExpressed)) return undefined;
    if (inputName(cls, prop.name) !== prop.name || isExcludedFromInput(cls, prop.name) || hasInputTransform(cls, prop.name)) return undefined;
    // A Set or a Map is built by class-transformer (under @Type): left to the libraries.
    if (isCollectionClass(Reflect.getMetadata('design:type', cls.prototype as object, prop.name))) return undefined;
    const structural = prop.constraints.find((c) => c.kind === 'nestedValidation' || c.kind === 'isDate');
    if (!structural) {
      props.push({ name: prop.name, convert: undefined });
      continue;
    }
    const element = elementConverter(cls, prop.name, cells);
    if (!element) return undefined;
    // An array is built element by element with or without `each`, as class-transformer does
    // (`@ValidateNested() kids!: Kid[]` validates each element too).
    props.push({ name: prop.name, convert: (v) => (Array.isArray(v) ? v.map(element) : element(v)) });
  }
  cell.build = (value) => {
    const instance = new cls() as Record<string, unknown>;
    for (const { name, convert } of props) {
      // Own keys only: `constructor` or `toString` left out of the input is not Object.prototype's.
      const v = Object.hasOwn(value, name) ? value[name] : undefined;
      if (v !== undefined) instance[name] = convert && v !== null ? convert(v) : v;
    }
    return instance;
  };
  return cell.build;
}

/** How one element of a nested property is built: a Date, or an instance of the `@Type` class. */
function elementConverter(cls: Class, property: string, cells: Map<Class, Cell>): Convert | undefined {
  const hint = findTypeMetadata(cls, property);
  if (!hint) return undefined;
  if (hint.discriminator) return discriminatedConverter(hint.discriminator, cells);
  let target: unknown;
  try {
    target = hint.resolve();
  } catch {
    return undefined;
  }
  if (target === Date) return (value) => new Date(value as string);
  if (typeof target !== 'function') return undefined;
  const build = compile(target as Class, cells);
  return build && ((value) => build(value as Record<string, unknown>));
}

/**
 * Builds the subclass the discriminator names, as `plainToInstance` does: the schema's
 * `oneOf` has already checked the value against that subclass. Without
 * `keepDiscriminatorProperty` the instance does not get the property.
 */
function discriminatedConverter(d: Discriminator, cells: Map<Class, Cell>): Convert | undefined {
  const builders = new Map<string, DtoBuilder>();
  for (const { name, value } of d.subTypes) {
    const build = compile(value, cells);
    if (!build) return undefined;
    builders.set(name, build);
  }
  const { property, keep } = d;
  return (value) => {
    const plain = value as Record<string, unknown>;
    const build = builders.get(plain[property] as string)!;
    if (keep) return build(plain);
    const { [property]: _dropped, ...rest } = plain;
    return build(rest);
  };
}

function isCollectionClass(type: unknown): boolean {
  return type === Set || type === Map;
}

function isExpressed(constraint: DtoConstraint): boolean {
  if (constraint.kind === 'isNumber') return isPlainNumberCheck(constraint.args[0]);
  return EXPRESSED_BY_SCHEMA.has(constraint.kind);
}

/** `@IsNumber()` with options such as `maxDecimalPlaces` checks more than `type: number`. */
function isPlainNumberCheck(options: unknown): boolean {
  return options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0);
}
