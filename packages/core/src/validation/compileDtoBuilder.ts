import type { Class } from '../metadata/Class';
import { findTypeMetadata, hasInputTransform, inputName, isExcludedFromInput } from '../schema/class-transformer';
import { readDtoProperties, type DtoConstraint } from '../schema/class-validator';

/** Builds a DTO instance from a value the DTO's schema has already accepted. */
export type DtoBuilder = (value: Record<string, unknown>) => object;

/**
 * Constraints whose whole meaning the advertised JSON Schema carries. Once the compiled
 * schema check has passed, class-validator would find nothing more to reject.
 */
const EXPRESSED_BY_SCHEMA = new Set([
  'isString', 'isInt', 'isBoolean', 'min', 'max', 'minLength', 'maxLength', 'isLength', 'isIn', 'isEnum', 'equals',
  'isOptional', 'isDefined', 'nestedValidation', 'isArray', 'arrayMinSize', 'arrayMaxSize', 'arrayNotEmpty',
  'isPositive', 'isNegative', 'isObject', 'isDate',
]);

/**
 * The fast path for `@Args` DTOs: when every constraint of the class (and of the classes
 * nested in it) is expressed by its schema and class-transformer does nothing beyond
 * `@Type`, a call validates with the compiled schema only and builds the instances here,
 * skipping `plainToInstance` and class-validator's `validate`, which dominate a DTO call's
 * cost. Returns undefined when the class needs the libraries (custom or format validators,
 * `@Transform`, `@Expose` renames, `@Exclude`, discriminators).
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
    if (!prop.constraints.every(isExpressed)) return undefined;
    if (inputName(cls, prop.name) !== prop.name || isExcludedFromInput(cls, prop.name) || hasInputTransform(cls, prop.name)) return undefined;
    const structural = prop.constraints.find((c) => c.kind === 'nestedValidation' || c.kind === 'isDate');
    if (!structural) {
      props.push({ name: prop.name, convert: undefined });
      continue;
    }
    const element = elementConverter(cls, prop.name, cells);
    if (!element) return undefined;
    props.push({ name: prop.name, convert: structural.each ? (v) => (Array.isArray(v) ? v.map(element) : element(v)) : element });
  }
  cell.build = (value) => {
    const instance = new cls() as Record<string, unknown>;
    for (const { name, convert } of props) {
      const v = value[name];
      if (v !== undefined) instance[name] = convert && v !== null ? convert(v) : v;
    }
    return instance;
  };
  return cell.build;
}

/** How one element of a nested property is built: a Date, or an instance of the `@Type` class. */
function elementConverter(cls: Class, property: string, cells: Map<Class, Cell>): Convert | undefined {
  const hint = findTypeMetadata(cls, property);
  if (!hint || hint.hasDiscriminator) return undefined;
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

function isExpressed(constraint: DtoConstraint): boolean {
  if (constraint.kind === 'isNumber') return isPlainNumberCheck(constraint.args[0]);
  return EXPRESSED_BY_SCHEMA.has(constraint.kind);
}

/** `@IsNumber()` with options such as `maxDecimalPlaces` checks more than `type: number`. */
function isPlainNumberCheck(options: unknown): boolean {
  return options === undefined || (typeof options === 'object' && options !== null && Object.keys(options).length === 0);
}
