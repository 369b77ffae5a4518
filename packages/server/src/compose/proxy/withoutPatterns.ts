/** Keywords whose value is one subschema. */
const ONE = ['additionalProperties', 'additionalItems', 'contains', 'propertyNames', 'not', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'items'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

type Schema = Record<string, unknown>;

/**
 * An upstream's JSON Schema without what would run its regular expressions (`pattern`, and
 * `patternProperties` with the keywords that depend on which names it matched:
 * `additionalProperties` beside it and `unevaluatedProperties` anywhere). The proxy checks
 * upstream results with a backtracking `RegExp`, on which an upstream-chosen pattern such as
 * `^(a+)+$` could stall its event loop; without them the check can only accept more, never
 * refuse a result the full schema allows. The rest of the schema is kept as it is.
 */
export function withoutPatterns(schema: Schema): Schema {
  const state = { matchedNames: false };
  const stripped = strip(schema, state, false) as Schema;
  return state.matchedNames ? (strip(stripped, state, true) as Schema) : stripped;
}

function strip(schema: unknown, state: { matchedNames: boolean }, unevaluated: boolean): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const named = Object.hasOwn(schema, 'patternProperties');
  if (named) state.matchedNames = true;
  const sub = (s: unknown) => strip(s, state, unevaluated);
  const kept: [string, unknown][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'pattern' || key === 'patternProperties' || (named && key === 'additionalProperties') || (unevaluated && key === 'unevaluatedProperties')) continue;
    if (LIST.includes(key) && Array.isArray(value)) kept.push([key, value.map(sub)]);
    else if (ONE.includes(key)) kept.push([key, sub(value)]);
    else if (MAP.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
      kept.push([key, Object.fromEntries(Object.entries(value).map(([name, s]) => [name, sub(s)]))]);
    } else kept.push([key, value]);
  }
  // Built from entries: a key such as `__proto__` stays an own property, as JSON.parse made it.
  return Object.fromEntries(kept);
}
