import type { Class } from '../metadata/Class';
import type { ParamOptions } from '../metadata/ParamOptions';
import type { BuildProblem } from '../registry/BuildProblem';
import type { JsonSchema } from './JsonSchema';

/** The `@Param` options that become a keyword of one kind of value, by the kind. */
const NUMBER_OPTIONS = ['integer', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf'] as const;
const STRING_OPTIONS = ['minLength', 'maxLength', 'pattern', 'format'] as const;
const ARRAY_OPTIONS = ['minItems', 'maxItems', 'uniqueItems'] as const;
/** What `schema` replaces: beside it these would be dropped without a word. */
const SHAPE_OPTIONS = ['type', 'enum', 'nullable', ...NUMBER_OPTIONS, ...STRING_OPTIONS, ...ARRAY_OPTIONS] as const;

type ConstraintOption = (typeof NUMBER_OPTIONS)[number] | (typeof STRING_OPTIONS)[number] | (typeof ARRAY_OPTIONS)[number];
type ShapeOption = (typeof SHAPE_OPTIONS)[number];

/** The formats a `Date` parameter can take: what arrives must be a string `new Date()` reads. */
const DATE_FORMATS = new Set(['date-time', 'date']);

/** The derived element (or the whole value, when not an array) that the scalar options apply to. */
export interface ParamItem {
  /** The element's schema, before the options are applied. */
  readonly schema: JsonSchema;
  /** Whether the parameter is an array of it. */
  readonly isArray: boolean;
  /** The class it was derived from (`String`, `Date`, a DTO class), when not an enum. */
  readonly cls: Class | undefined;
}

/**
 * The options of one `@Param` that do not apply to the type its schema gets: `integer` on a
 * string (dropped), `minLength` on a number (advertised and never checked), `minItems` on a
 * non-array, or any shape option beside `schema` (which is used as given). The number and
 * string options apply to an array's elements, the array options to the array, so
 * `{ type: () => [String], minLength: 1 }` is fine. Each problem names the option, the type
 * and the fix.
 */
export function paramOptionProblems(options: ParamOptions, item: ParamItem | undefined, where: string): BuildProblem[] {
  if (options.schema !== undefined) return SHAPE_OPTIONS.filter((key) => isSet(options, key)).map((key) => besideSchema(key, options, where));
  if (!item) return [];
  const problems: BuildProblem[] = [];
  const kinds = kindsOf(item.schema);
  const isDate = item.cls === Date && options.enum === undefined;
  const push = (key: ConstraintOption, noun: string, fix: string) =>
    problems.push({ where, what: `its option ${show(key, options)} applies only to ${noun}, but ${describeParam(item, kinds, isDate)}, so it would have no effect`, fix });

  for (const key of NUMBER_OPTIONS) {
    if (!isSet(options, key)) continue;
    // `integer` turns `"type": "number"` into `"integer"`: on an enum without that type it is dropped.
    const applies = key === 'integer' ? item.schema.type === 'number' || item.schema.type === 'integer' : kinds.has('number') || kinds.has('integer');
    if (applies) continue;
    push(key, item.isArray ? 'numbers (in an array, to each element)' : 'numbers', fixType(key, item, 'number', 'Number'));
  }
  for (const key of STRING_OPTIONS) {
    if (!isSet(options, key)) continue;
    if (kinds.has('string')) {
      if (key === 'format' && isDate && !DATE_FORMATS.has(String(options.format))) {
        problems.push({
          where,
          what: `its option ${show(key, options)} does not fit a Date parameter, which arrives as a string that new Date() reads`,
          fix: "use format: 'date-time' (the default) or format: 'date', or make the parameter a string.",
        });
      }
      continue;
    }
    const counts =
      item.isArray && (key === 'minLength' || key === 'maxLength') ? `to bound how many elements the array has, use ${key === 'minLength' ? 'minItems' : 'maxItems'} instead; otherwise ` : '';
    push(key, item.isArray ? 'strings (in an array, to each element)' : 'strings', counts + fixType(key, item, 'string', 'String'));
  }
  for (const key of ARRAY_OPTIONS) {
    if (!isSet(options, key) || item.isArray) continue;
    push(key, 'arrays', `remove ${key}, or make the parameter an array: @Param('name', { type: () => [${elementName(item, kinds)}] }).`);
  }
  return problems;
}

/** `integer: false` and `uniqueItems: false` ask for nothing; any other value set asks for something. */
function isSet(options: ParamOptions, key: ShapeOption): boolean {
  const value = options[key];
  return value !== undefined && value !== false;
}

/** `minLength: 3`, `pattern: /^a/`, `format: 'email'`, `type: () => ...`. */
function show(key: ShapeOption, options: ParamOptions): string {
  const value: unknown = options[key];
  if (typeof value === 'string') return `${key}: '${value}'`;
  if (value instanceof RegExp) return `${key}: ${String(value)}`;
  if (typeof value === 'function') return `${key}: () => ...`;
  if (typeof value === 'object') return `${key}: ${JSON.stringify(value)}`;
  return `${key}: ${String(value)}`;
}

function besideSchema(key: ShapeOption, options: ParamOptions, where: string): BuildProblem {
  const what = `its option ${show(key, options)} has no effect beside schema, which is used as given`;
  if (key === 'type') {
    return { where, what, fix: 'remove type (the schema says what arrives, and the method receives the JSON value as is), or remove schema to have it derived from the type.' };
  }
  const keyword =
    key === 'integer'
      ? "type: 'integer'"
      : key === 'nullable'
        ? "'null' among its types, e.g. type: ['string', 'null']"
        : key === 'pattern' && options.pattern instanceof RegExp
          ? `pattern: '${options.pattern.source}'`
          : show(key, options);
  return { where, what, fix: `write it into the schema (${keyword}) and remove ${key}, or remove schema to have the schema derived.` };
}

/** The JSON types the element's schema can have: its `type`, or those of its enum's values. */
function kindsOf(schema: JsonSchema): Set<string> {
  if (schema.type !== undefined) return new Set(([] as string[]).concat(schema.type));
  if (schema.enum) return new Set(schema.enum.map((v) => (typeof v === 'number' ? 'number' : typeof v === 'string' ? 'string' : 'other')));
  return new Set(['object']); // a DTO class placed under `$defs` is a `$ref`
}

function describeParam(item: ParamItem, kinds: Set<string>, isDate: boolean): string {
  const one = item.schema.enum ? `an enum of ${plural(kinds)}` : isDate ? 'a Date' : isDto(item) ? `an object (${item.cls!.name})` : singular(kinds);
  if (!item.isArray) return `the parameter is ${one}`;
  const many = item.schema.enum ? `${plural(kinds)} from an enum` : isDate ? 'Dates' : isDto(item) ? `objects (${item.cls!.name})` : plural(kinds);
  return `the parameter is an array of ${many}`;
}

/** Remove the option, or give the parameter (or its elements) the type it applies to. */
function fixType(key: ConstraintOption, item: ParamItem, type: string, cls: string): string {
  if (isDto(item)) return `remove ${key}: the rules of a DTO class go on its properties, as class-validator decorators.`;
  if (item.isArray) return `remove ${key}, or make the elements ${type}s: @Param('name', { type: () => [${cls}] }).`;
  return `remove ${key}, or change the parameter's type to ${type}.`;
}

function elementName(item: ParamItem, kinds: Set<string>): string {
  if (item.schema.enum) return kinds.size === 1 && kinds.has('number') ? 'Number' : 'String';
  return item.cls?.name || 'String';
}

function isDto(item: ParamItem): boolean {
  return item.schema.enum === undefined && item.cls !== undefined && item.cls !== String && item.cls !== Number && item.cls !== Boolean && item.cls !== Date;
}

function singular(kinds: Set<string>): string {
  const [kind = 'value'] = kinds;
  return kind === 'integer' || kind === 'object' ? `an ${kind}` : `a ${kind}`;
}

function plural(kinds: Set<string>): string {
  return [...kinds].map((k) => (k === 'other' ? 'other values' : `${k}s`)).join(' and ');
}
