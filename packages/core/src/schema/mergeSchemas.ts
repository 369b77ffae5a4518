import type { JsonSchema, JsonSchemaType } from './JsonSchema';

const TIGHTER_IS_LARGER = new Set(['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties']);
const TIGHTER_IS_SMALLER = new Set(['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties']);

/**
 * Both schemas at once: types intersect, bounds keep the tighter value, enums intersect;
 * any other keyword both set differently (two patterns) moves into `allOf`.
 */
export function mergeSchemas(a: JsonSchema, b: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...a };
  for (const [key, value] of Object.entries(b)) {
    const current = out[key];
    if (value === undefined || sameJson(current, value)) continue;
    if (current === undefined) out[key] = value;
    else if (key === 'type') out.type = unwrapTypes(intersectTypes(typesOf(current as JsonSchema['type'])!, typesOf(value as JsonSchema['type'])!), value as JsonSchema['type']);
    else if (TIGHTER_IS_LARGER.has(key)) out[key] = Math.max(current as number, value as number);
    else if (TIGHTER_IS_SMALLER.has(key)) out[key] = Math.min(current as number, value as number);
    else if (key === 'enum') out.enum = (current as unknown[]).filter((x) => (value as unknown[]).some((y) => sameJson(x, y)));
    else if (key === 'allOf') out.allOf = [...(current as JsonSchema[]), ...(value as JsonSchema[])];
    else out.allOf = [...(out.allOf ?? []), { [key]: value }];
  }
  return out;
}

/** A schema's `type` as a list; undefined when it has none. */
export function typesOf(type: JsonSchema['type']): JsonSchemaType[] | undefined {
  if (type === undefined) return undefined;
  return typeof type === 'string' ? [type] : [...type];
}

/** The one type a schema's `type` names; undefined for none or several. */
export function singleType(type: JsonSchema['type']): JsonSchemaType | undefined {
  const types = typesOf(type);
  return types?.length === 1 ? types[0] : undefined;
}

/** Type intersection where `integer` is a subset of `number`. */
export function intersectTypes(a: readonly JsonSchemaType[], b: readonly JsonSchemaType[]): JsonSchemaType[] {
  const out = new Set<JsonSchemaType>();
  for (const x of a) {
    for (const y of b) {
      if (x === y) out.add(x);
      else if ((x === 'integer' && y === 'number') || (x === 'number' && y === 'integer')) out.add('integer');
    }
  }
  return [...out];
}

/** One type as a string; an empty intersection keeps the later type (the conflict is reported). */
function unwrapTypes(types: JsonSchemaType[], fallback: JsonSchema['type']): JsonSchema['type'] {
  if (types.length === 0) return fallback;
  return types.length === 1 ? types[0] : types;
}

function sameJson(a: unknown, b: unknown): boolean {
  return a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));
}
