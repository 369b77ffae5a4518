import type { JsonSchema } from '../schema/JsonSchema';

/** The schema keyword that mirrors a tool argument into an HTTP header (SEP-2243). */
export const X_MCP_HEADER = 'x-mcp-header';

/** One argument a tool mirrors into an `Mcp-Param-<header>` HTTP header. */
export interface ParamHeader {
  /** The header's name after `Mcp-Param-`, as declared (`Region` → `Mcp-Param-Region`). */
  readonly header: string;
  /** Where the argument sits in `arguments`: property names from the root (`['region']`, `['target', 'region']`). */
  readonly path: readonly string[];
  /** The property's JSON Schema type: `string`, `integer` or `boolean`. */
  readonly type: 'string' | 'integer' | 'boolean';
}

/** What a scan of an input schema found: the declarations, or what is wrong with them. */
export type ParamHeaderScan = { readonly ok: true; readonly headers: readonly ParamHeader[] } | { readonly ok: false; readonly problems: readonly string[] };

/** RFC 9110 `token`: the characters a header name may have (no space, control character or delimiter). */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);

/** Keywords whose subschemas are not reached through `properties` alone: a header declared under one is invalid. */
const ELSEWHERE = ['items', 'prefixItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'propertyNames', 'not', 'if', 'then', 'else'];
const ELSEWHERE_LISTS = ['oneOf', 'anyOf', 'allOf'];
const ELSEWHERE_MAPS = ['patternProperties', 'dependentSchemas', '$defs', 'definitions'];

/**
 * The `x-mcp-header` declarations of a tool's input schema (SEP-2243), checked against the
 * rules a client applies before it trusts a tool: a non-empty RFC 9110 token, on a
 * `string`, `integer` or `boolean` property reached from the root through `properties`
 * only, unique without regard to case. A client drops a tool that breaks one of them.
 */
export function scanParamHeaders(schema: JsonSchema): ParamHeaderScan {
  const headers: ParamHeader[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  const visit = (node: unknown, path: readonly string[], reachable: boolean): void => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return;
    const s = node as Record<string, unknown>;
    if (Object.hasOwn(s, X_MCP_HEADER)) {
      // Named only where a declaration is (every node of every tool's schema is visited at build).
      const at = path.length === 0 ? 'the root' : `property '${path.join('.')}'`;
      const name = s[X_MCP_HEADER];
      const type = s.type;
      if (!reachable || path.length === 0) problems.push(`${at} declares x-mcp-header where only a property reached through 'properties' may (not under items, oneOf/anyOf/allOf, $defs, ...)`);
      else if (typeof name !== 'string' || !TOKEN.test(name))
        problems.push(`${at} declares x-mcp-header ${JSON.stringify(name)}, which is not an HTTP header name: use letters, digits and - (e.g. 'Region')`);
      else if (typeof type !== 'string' || !TYPES.has(type))
        problems.push(`${at} declares x-mcp-header '${name}' on a ${JSON.stringify(type ?? 'untyped')} property; only string, integer and boolean properties may travel as headers`);
      else if (seen.has(name.toLowerCase())) problems.push(`${at} declares x-mcp-header '${name}', already declared as '${seen.get(name.toLowerCase())}' (header names ignore case)`);
      else {
        seen.set(name.toLowerCase(), name);
        headers.push(Object.freeze({ header: name, path: Object.freeze([...path]), type: type as ParamHeader['type'] }));
      }
    }
    if (typeof s.properties === 'object' && s.properties !== null) for (const [key, child] of Object.entries(s.properties)) visit(child, [...path, key], reachable);
    for (const k of ELSEWHERE) if (Object.hasOwn(s, k)) visit(s[k], [...path, `(${k})`], false);
    for (const k of ELSEWHERE_LISTS) if (Array.isArray(s[k])) for (const sub of s[k] as unknown[]) visit(sub, [...path, `(${k})`], false);
    for (const k of ELSEWHERE_MAPS) if (typeof s[k] === 'object' && s[k] !== null) for (const sub of Object.values(s[k] as object)) visit(sub, [...path, `(${k})`], false);
  };
  visit(schema, [], true);
  return problems.length > 0 ? { ok: false, problems } : { ok: true, headers };
}
