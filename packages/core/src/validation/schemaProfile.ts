/**
 * The JSON Schema 2020-12 profile Toolwright validates: every keyword a schema may carry is
 * either enforced by `compileSchemaValidator`, an annotation (no effect on validity), or
 * refused here, so no keyword is silently skipped. The docs' schema profile lists the same.
 */

import type { PatternCompiler } from './PatternCompiler';
import { refLoopIssues } from './refLoopIssues';
import { resolvePointer } from './resolvePointer';

export { resolvePointer };

/** Keywords whose value is one subschema. */
const ONE_SCHEMA = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else'] as const;
/** Keywords whose value maps names to subschemas. */
const SCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const;
/** Keywords whose value is a list of subschemas. */
const SCHEMA_LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'] as const;
/** Keywords enforced on the value itself. */
const ASSERTIONS = [
  'type',
  'enum',
  'const',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minContains',
  'maxContains',
  'required',
  'minProperties',
  'maxProperties',
  'dependentRequired',
  '$ref',
] as const;
/**
 * Keywords that describe and never reject. `format` values outside FORMAT_CHECKS are
 * annotations too, as 2020-12 says; `enumNames` is MCP's legacy titles of an elicitation enum.
 */
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment', 'contentMediaType', 'contentEncoding', 'contentSchema', 'enumNames'] as const;

/** Every keyword of the profile (`$schema` and `$id` are allowed at the root only). */
export const SUPPORTED_KEYWORDS: ReadonlySet<string> = new Set<string>([...ONE_SCHEMA, ...SCHEMA_MAPS, ...SCHEMA_LISTS, ...ASSERTIONS, ...ANNOTATIONS]);

const DIALECT = 'https://json-schema.org/draft/2020-12/schema';

/** How to replace a keyword from outside the profile (older drafts, dynamic scopes, vocabularies). */
const REFUSED: Readonly<Record<string, string>> = {
  unevaluatedProperties: 'use `additionalProperties: false` next to `properties` (and `patternProperties`) in the same schema.',
  unevaluatedItems: 'use `items: false` after `prefixItems`, or an `items` schema.',
  $dynamicRef: "use `$ref: '#/$defs/name'`.",
  $dynamicAnchor: "name the schema under `$defs` and use `$ref: '#/$defs/name'`.",
  $anchor: "name the schema under `$defs` and use `$ref: '#/$defs/name'`.",
  $recursiveRef: "use `$ref: '#/$defs/name'`.",
  $recursiveAnchor: "use `$ref: '#/$defs/name'`.",
  $vocabulary: 'remove it: Toolwright validates the 2020-12 profile in its docs.',
  definitions: 'rename it to `$defs` (JSON Schema 2020-12) and point `$ref`s at `#/$defs/name`.',
  dependencies: 'split it into `dependentRequired` (lists of names) and `dependentSchemas` (schemas).',
  additionalItems: 'use `prefixItems` for the fixed positions and `items` for the rest (JSON Schema 2020-12).',
};

/** One keyword Toolwright cannot enforce, at a JSON Pointer into the schema. */
export interface SchemaProfileIssue {
  readonly pointer: string;
  readonly what: string;
  readonly fix: string;
}

/**
 * Lists the keywords of `schema` that fall outside the profile. Vendor keywords starting
 * with `x-` are allowed (they never affect validity). With `compilePattern`, a pattern it
 * refuses (throws for) is listed too.
 */
export function schemaProfileIssues(schema: unknown, compilePattern?: PatternCompiler): SchemaProfileIssue[] {
  const issues: SchemaProfileIssue[] = [];
  const run: Walk = { root: schema, issues, compilePattern, refs: false };
  walk(schema, '', true, run);
  // Only a schema with a `$ref` can loop: most have none, and are not walked again.
  if (run.refs) issues.push(...refLoopIssues(schema));
  return issues;
}

/** What one walk shares: the root (for `$ref`s), the issues found, and the tool's pattern compiler. */
interface Walk {
  readonly root: unknown;
  readonly issues: SchemaProfileIssue[];
  readonly compilePattern: PatternCompiler | undefined;
  /** Whether the walk met a `$ref`. */
  refs: boolean;
}

/** One line per issue, for a build problem's `what`. */
export function describeProfileIssues(issues: readonly SchemaProfileIssue[]): { what: string; fix: string } {
  return {
    what: `uses JSON Schema that Toolwright cannot enforce: ${issues.map((i) => `${i.pointer || '(root)'} ${i.what}`).join('; ')}`,
    fix: [...new Set(issues.map((i) => i.fix))].join(' '),
  };
}

function walk(schema: unknown, pointer: string, isRoot: boolean, context: Walk): void {
  const { issues } = context;
  if (typeof schema === 'boolean') return;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
    issues.push({ pointer, what: `is ${Array.isArray(schema) ? 'an array' : JSON.stringify(schema)}, not a schema`, fix: 'give a schema object (or true/false) at every schema position.' });
    return;
  }
  const s = schema as Record<string, unknown>;
  for (const key in s) {
    if (!Object.hasOwn(s, key)) continue;
    const value = s[key];
    if (SUPPORTED_KEYWORDS.has(key)) {
      if (CHECKED_VALUES.has(key)) checkValue(key, value, `${pointer}/${key}`, context);
      continue;
    }
    if (key.startsWith('x-')) continue;
    const at = `${pointer}/${escapePointer(key)}`;
    if (key === '$schema' || key === '$id') {
      if (!isRoot) issues.push({ pointer: at, what: `sets ${key} inside a subschema`, fix: `remove it: only the root may carry ${key}.` });
      else if (key === '$schema' && value !== DIALECT && value !== `${DIALECT}#`) {
        issues.push({ pointer: at, what: `names the dialect ${JSON.stringify(value)}`, fix: `use '${DIALECT}' or leave $schema out (MCP then means 2020-12).` });
      }
    } else {
      issues.push({ pointer: at, what: `has the keyword '${key}', which Toolwright does not enforce`, fix: REFUSED[key] ?? `remove it, or prefix a vendor annotation with 'x-' ('x-${key}').` });
    }
  }
  for (const key of ONE_SCHEMA) {
    if (s[key] !== undefined) walk(s[key], `${pointer}/${key}`, false, context);
  }
  for (const key of SCHEMA_MAPS) {
    const map = s[key];
    if (typeof map !== 'object' || map === null) continue;
    for (const name in map) if (Object.hasOwn(map, name)) walk((map as Record<string, unknown>)[name], `${pointer}/${key}/${escapePointer(name)}`, false, context);
  }
  for (const key of SCHEMA_LISTS) {
    const list = s[key];
    if (Array.isArray(list)) list.forEach((sub, i) => walk(sub, `${pointer}/${key}/${i}`, false, context));
  }
}

const TYPES: ReadonlySet<unknown> = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const isCount = (v: unknown): boolean => Number.isSafeInteger(v) && (v as number) >= 0;
const isNames = (v: unknown): boolean => Array.isArray(v) && v.every((name) => typeof name === 'string');

/** The shape an assertion keyword's value must have, and that shape in words (JSON Schema 2020-12, section 6). */
const VALUE_SHAPES: Readonly<Record<string, readonly [(value: unknown) => boolean, string]>> = {
  type: [
    (v) => TYPES.has(v) || (Array.isArray(v) && v.length > 0 && v.every((t) => TYPES.has(t))),
    "a type name ('string', 'number', 'integer', 'boolean', 'object', 'array', 'null') or a list of them",
  ],
  enum: [(v) => Array.isArray(v) && v.length > 0, 'a non-empty list of values'],
  minimum: [(v) => typeof v === 'number', 'a number'],
  maximum: [(v) => typeof v === 'number', 'a number'],
  multipleOf: [(v) => typeof v === 'number' && v > 0, 'a number above 0'],
  minLength: [isCount, 'a whole number of 0 or more'],
  maxLength: [isCount, 'a whole number of 0 or more'],
  minItems: [isCount, 'a whole number of 0 or more'],
  maxItems: [isCount, 'a whole number of 0 or more'],
  minContains: [isCount, 'a whole number of 0 or more'],
  maxContains: [isCount, 'a whole number of 0 or more'],
  minProperties: [isCount, 'a whole number of 0 or more'],
  maxProperties: [isCount, 'a whole number of 0 or more'],
  uniqueItems: [(v) => typeof v === 'boolean', 'true or false'],
  required: [isNames, 'a list of property names'],
  dependentRequired: [(v) => typeof v === 'object' && v !== null && !Array.isArray(v) && Object.values(v).every(isNames), '{ name: [property names] }'],
  format: [(v) => typeof v === 'string', 'a format name'],
  pattern: [(v) => typeof v === 'string', 'a regular expression as a string'],
};

/** Keywords whose value needs a check beyond being present. */
const CHECKED_VALUES: ReadonlySet<string> = new Set(['items', 'exclusiveMinimum', 'exclusiveMaximum', 'pattern', '$ref', ...SCHEMA_MAPS, ...SCHEMA_LISTS, ...Object.keys(VALUE_SHAPES)]);

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function checkValue(key: string, value: unknown, at: string, run: Walk): void {
  const { root, issues, compilePattern } = run;
  const bad = (what: string, fix: string) => void issues.push({ pointer: at, what, fix });
  const shape = Object.hasOwn(VALUE_SHAPES, key) ? VALUE_SHAPES[key] : undefined;
  if (shape && !shape[0](value)) bad(`is ${JSON.stringify(value) ?? String(value)}, not ${shape[1]}`, `give ${key} ${shape[1]}.`);
  else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value !== 'number' && typeof value !== 'boolean')
    bad(`is ${JSON.stringify(value)}, not a number`, `give ${key} a number.`);
  else if (key === 'items' && Array.isArray(value)) bad('is a list of schemas (an older draft)', 'use `prefixItems: [...]` for positions (JSON Schema 2020-12).');
  else if ((key === 'exclusiveMinimum' || key === 'exclusiveMaximum') && typeof value === 'boolean') {
    bad(`is a boolean (an older draft)`, `give the bound itself: \`${key}: 5\` (JSON Schema 2020-12).`);
  } else if ((SCHEMA_MAPS as readonly string[]).includes(key) && (typeof value !== 'object' || value === null || Array.isArray(value))) {
    bad('is not an object of schemas', `give { name: schema } for ${key}.`);
  } else if ((SCHEMA_LISTS as readonly string[]).includes(key) && (!Array.isArray(value) || (key !== 'prefixItems' && value.length === 0))) {
    bad('is not a non-empty list of schemas', `give [schema, ...] for ${key}.`);
  } else if (key === 'pattern' || key === 'patternProperties') {
    for (const source of key === 'pattern' ? [value] : Object.keys((value as object | null) ?? {})) {
      try {
        new RegExp(String(source), 'u');
      } catch (error) {
        bad(
          `has a pattern ${JSON.stringify(source)} that is not a valid regular expression: ${(error as Error).message}`,
          'write an ECMAScript regular expression (JSON Schema patterns are ECMA-262, Unicode mode).',
        );
        continue;
      }
      if (!compilePattern) continue;
      try {
        compilePattern(String(source));
      } catch (error) {
        bad(`has a pattern ${JSON.stringify(source)} that \`compilePattern\` refuses: ${(error as Error).message}`, 'write a pattern that compiler can run, or compile patterns another way.');
      }
    }
  } else if (key === '$ref') {
    run.refs = true;
    if (typeof value !== 'string' || !value.startsWith('#'))
      bad(`points outside the schema (${JSON.stringify(value)})`, "keep $ref inside the schema: '#/$defs/name' (remote references are not fetched).");
    else if (resolvePointer(root, value) === undefined) bad(`points at ${JSON.stringify(value)}, which the schema does not have`, "add the target under the root's $defs and point at '#/$defs/name'.");
  }
}
