/**
 * The converter table: class-validator constraint kind -> JSON Schema fragment.
 *
 * Each fragment is merged into the schema of the property (or, for `{ each: true }`, of its
 * array items). A converter states only what JSON Schema can express; a validator with no
 * equivalent gets at most the `type` it implies, and the server-side class-validator run
 * stays the source of truth. Fragments state `type` whenever class-validator rejects every
 * other type (e.g. `@Min` fails for non-numbers), so a property reflected as `Object`
 * (`x?: number | undefined`) still gets a type.
 */
import type { EnumLike } from '../metadata/ParamOptions';
import type { DtoConstraint } from './class-validator';
import { enumType, enumValues } from './enumValues';
import type { JsonSchema, JsonSchemaType } from './JsonSchema';

/** What a converter may know about the value besides its own constraint. */
export interface DtoConverterContext {
  /**
   * The JSON type the value is known to have (from TypeScript or the other constraints), if
   * exactly one; e.g. `@IsNotEmpty()` means `minLength: 1` only for strings.
   */
  readonly type: JsonSchemaType | undefined;
}

/** Turns one constraint into a schema fragment; `undefined` when JSON Schema cannot say it. */
export type DtoConverter = (constraint: DtoConstraint, context: DtoConverterContext) => JsonSchema | undefined;

/** Constraint kind (class-validator's validator name) -> converter. */
export type DtoConverterTable = Readonly<Record<string, DtoConverter>>;

const arg = <T>(c: DtoConstraint, index: number): T | undefined => c.args[index] as T | undefined;
const num = (c: DtoConstraint, index: number): number | undefined => {
  const value = c.args[index];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};
const only =
  (schema: JsonSchema): DtoConverter =>
  () => ({ ...schema });
const str = (extra: JsonSchema = {}): DtoConverter => only({ type: 'string', ...extra });
const pattern = (source: string): DtoConverter => str({ pattern: source });
const withDefined = (schema: JsonSchema): JsonSchema => Object.fromEntries(Object.entries(schema).filter(([, value]) => value !== undefined)) as JsonSchema;

/** class-validator's locale-dependent checks equal a plain ASCII pattern only for en-US (its default). */
const enUsPattern =
  (source: string): DtoConverter =>
  (c) => ({ type: 'string', ...(arg<string>(c, 0) === undefined || arg<string>(c, 0) === 'en-US' ? { pattern: source } : {}) });

/** `@Matches(/re/flags)` or `@Matches('re', 'flags')`. */
const matches: DtoConverter = (c) => {
  const re = arg<RegExp | string>(c, 0);
  if (re === undefined) return { type: 'string' };
  // JSON Schema patterns are ECMA-262 regexes WITHOUT flags. g/y/d/u do not change what
  // a fresh `test()` accepts; i/m/s do, and are dropped here too, so the advertised pattern
  // can be stricter than the server check (class-validator still validates with the flags).
  return { type: 'string', pattern: typeof re === 'string' ? re : re.source };
};

/** `@IsIn([...])` and `@IsEnum(E)`: the allowed values, typed when they share one type. */
const enumOf = (values: readonly unknown[]): JsonSchema => {
  const type = enumType(values);
  return type ? { type, enum: [...values] } : { enum: [...values] };
};

const isIp: DtoConverter = (c) => {
  const version = String(arg<string | number>(c, 0) ?? '');
  if (version === '4') return { type: 'string', format: 'ipv4' };
  if (version === '6') return { type: 'string', format: 'ipv6' };
  return { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] };
};

/** Escapes a literal for use inside a regular expression. */
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/** The built-in converters. Kinds are class-validator's validator names. */
export const defaultDtoConverters: DtoConverterTable = Object.freeze({
  // type checkers
  isString: only({ type: 'string' }),
  isInt: only({ type: 'integer' }),
  isNumber: only({ type: 'number' }), // allowNaN / allowInfinity / maxDecimalPlaces have no JSON equivalent
  isBoolean: only({ type: 'boolean' }),
  isDate: only({ type: 'string', format: 'date-time' }), // JSON carries dates as ISO strings; needs @Type(() => Date)
  isArray: only({ type: 'array' }),
  isObject: only({ type: 'object' }),
  isEnum: (c) => enumOf(enumValues(arg<EnumLike>(c, 0) ?? [])), // forward values only, no numeric-enum reverse keys
  // common
  equals: (c) => ({ const: c.args[0] }),
  notEquals: (c) => ({ not: { const: c.args[0] } }),
  isIn: (c) => enumOf(arg<readonly unknown[]>(c, 0) ?? []),
  isNotIn: (c) => ({ not: { enum: [...(arg<readonly unknown[]>(c, 0) ?? [])] } }),
  isNotEmpty: (_c, { type }) => (type === 'string' ? { minLength: 1 } : undefined),
  // numbers
  min: (c) => withDefined({ type: 'number', minimum: num(c, 0) }),
  max: (c) => withDefined({ type: 'number', maximum: num(c, 0) }),
  isPositive: only({ type: 'number', exclusiveMinimum: 0 }),
  isNegative: only({ type: 'number', exclusiveMaximum: 0 }),
  isDivisibleBy: (c) => withDefined({ type: 'number', multipleOf: num(c, 0) }),
  // strings: lengths and patterns
  minLength: (c) => withDefined({ type: 'string', minLength: num(c, 0) }),
  maxLength: (c) => withDefined({ type: 'string', maxLength: num(c, 0) }),
  isLength: (c) => withDefined({ type: 'string', minLength: num(c, 0), maxLength: num(c, 1) }),
  matches,
  contains: (c) => withDefined({ type: 'string', pattern: typeof c.args[0] === 'string' ? escapeRegExp(c.args[0]) : undefined }),
  notContains: (c) => withDefined({ type: 'string', pattern: typeof c.args[0] === 'string' ? `^(?![\\s\\S]*${escapeRegExp(c.args[0])})` : undefined }),
  isAlpha: enUsPattern('^[A-Za-z]+$'),
  isAlphanumeric: enUsPattern('^[A-Za-z0-9]+$'),
  isAscii: pattern('^[\\x00-\\x7F]+$'),
  isHexColor: pattern('^#?(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{4}|[0-9A-Fa-f]{6}|[0-9A-Fa-f]{8})$'),
  isHexadecimal: pattern('^(?:0[xXhH])?[0-9A-Fa-f]+$'),
  isMongoId: pattern('^[0-9A-Fa-f]{24}$'),
  isBooleanString: str({ enum: ['true', 'false', '1', '0'] }),
  // strings: formats
  isEmail: str({ format: 'email' }),
  isUrl: str({ format: 'uri' }),
  isUuid: str({ format: 'uuid' }),
  // ISO 8601 has more forms than any JSON Schema format: a date alone (2024-01-01), a month
  // (2024-01), week and ordinal dates (2024-W01-1, 2024-001), the basic form (20240101), a time
  // to the hour. 'date-time' refused all of those, 'date' all but the first: the type only,
  // and class-validator's isISO8601 decides, as it did without Toolwright.
  isDateString: str(),
  isIso8601: str(),
  isRFC3339: str({ format: 'date-time' }), // a full date-time with an offset: within 'date-time'
  isFqdn: str({ format: 'hostname' }),
  isIp,
  // strings with no JSON Schema equivalent beyond the type
  isLowercase: str(),
  isUppercase: str(),
  isNumberString: str(),
  isJson: str(),
  isJwt: str(),
  isBase64: str(),
  isSemVer: str(),
  isPort: str(),
  isMimeType: str(),
  isLocale: str(),
  isTimeZone: str(),
  isPhoneNumber: str(),
  isMobilePhone: str(),
  isPostalCode: str(),
  isCreditCard: str(),
  isCurrency: str(),
  isDecimal: str(),
  isMacAddress: str(),
  isByteLength: str(), // bytes, not characters: minLength/maxLength would be wrong
  // arrays
  arrayMinSize: (c) => withDefined({ type: 'array', minItems: num(c, 0) }),
  arrayMaxSize: (c) => withDefined({ type: 'array', maxItems: num(c, 0) }),
  arrayNotEmpty: only({ type: 'array', minItems: 1 }),
  arrayUnique: only({ type: 'array', uniqueItems: true }), // with an identifier function it is stricter than this
  // objects
  isNotEmptyObject: only({ type: 'object', minProperties: 1 }),
} satisfies Record<string, DtoConverter>);

/** The table with `additional` converters added; an entry there replaces a default of the same kind. */
export function mergeDtoConverters(base: DtoConverterTable, additional?: DtoConverterTable): DtoConverterTable {
  return additional ? Object.freeze({ ...base, ...additional }) : base;
}
