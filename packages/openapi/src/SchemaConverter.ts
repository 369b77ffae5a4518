import { ConfigError, type JsonSchema } from '@toolwright/core';
import { defineOwn } from './defineOwn';
import type { LinearPatterns } from './LinearPatterns';
import { resolveRef } from './resolveRef';

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else'];
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
/** Keywords whose value is a list of subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** OpenAPI keywords that describe and never reject: left out of the tool's schema. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example', '$schema', '$id', 'definitions', '$defs']);
/** Keywords that apply their subschemas to the same value: a `$ref` cycle through only these never ends. */
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'];
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'];
/** Nesting past this is refused: no real description comes near it, and converting it would overflow the stack. */
export const MAX_SCHEMA_DEPTH = 200;
/** Schema objects converted for one operation at most: a description that shares objects (YAML aliases) could otherwise expand exponentially. */
export const MAX_SCHEMA_NODES = 100_000;
/** C0 and C1 control characters other than tab and line breaks, which a terminal or a UI would act on. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** A description or title without control characters. */
export function plainText(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * Turns the schemas of one bundled OpenAPI description into JSON Schema 2020-12 for one tool:
 * every `$ref` (recursive ones included) becomes `#/$defs/<name>`, with the target converted
 * once under `$defs`; OpenAPI 3.0's `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`
 * and `example` become their 2020-12 forms. Each `pattern` and `patternProperties` name is
 * checked against `patterns` on the way (see `LinearPatterns.check`).
 */
export class SchemaConverter {
  private readonly keys = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly defs: Record<string, JsonSchema> = {};
  private nodes = 0;

  /**
   * @param where - the operation, for errors (`GET /pets`).
   * @param patterns - the description's patterns, which refuses those RE2 cannot run.
   */
  constructor(
    private readonly document: unknown,
    private readonly where: string,
    private readonly patterns: LinearPatterns,
  ) {}

  convert(schema: unknown, at: string, depth = 0): JsonSchema {
    if (typeof schema === 'boolean') return schema as unknown as JsonSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new ConfigError(`Toolwright: the OpenAPI schema at ${at} is ${excerpt(schema)}, not a schema object. Fix the description, or leave ${this.where} out with \`include\`.`);
    }
    if (depth > MAX_SCHEMA_DEPTH) {
      throw new ConfigError(
        `Toolwright: the OpenAPI schemas of ${this.where} nest more than ${MAX_SCHEMA_DEPTH} levels deep (at ${at.slice(0, 200)}…). Fix the description, or leave the operation out with \`include\`.`,
      );
    }
    if (++this.nodes > MAX_SCHEMA_NODES) {
      throw new ConfigError(
        `Toolwright: the OpenAPI schemas of ${this.where} hold more than ${MAX_SCHEMA_NODES} schema objects (a description that repeats shared parts, such as YAML aliases, expands to that). Fix the description, or leave the operation out with \`include\`.`,
      );
    }
    const s = schema as Record<string, unknown>;
    if (typeof s.$ref === 'string') return { ...this.annotations(s), $ref: `#/$defs/${this.defFor(s.$ref, at, depth + 1)}` } as JsonSchema;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(s)) {
      if (DROPPED.has(key)) continue;
      const value = s[key];
      if (key === 'pattern' && typeof value === 'string') this.checkPattern(value, `${at}/pattern`);
      if (key === 'patternProperties' && typeof value === 'object' && value !== null) for (const name of Object.keys(value)) this.checkPattern(name, `${at}/patternProperties/${name}`);
      if (ONE.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) defineOwn(out, key, this.convert(value, `${at}/${key}`, depth + 1));
      else if (MAPS.includes(key) && typeof value === 'object' && value !== null) {
        const map: Record<string, JsonSchema> = {};
        for (const name of Object.keys(value)) defineOwn(map, name, this.convert((value as Record<string, unknown>)[name], `${at}/${key}/${name}`, depth + 1));
        defineOwn(out, key, map);
      } else if (LISTS.includes(key) && Array.isArray(value))
        defineOwn(
          out,
          key,
          value.map((sub, i) => this.convert(sub, `${at}/${key}/${i}`, depth + 1)),
        );
      else if ((key === 'description' || key === 'title') && typeof value === 'string') defineOwn(out, key, plainText(value));
      else defineOwn(out, key, value);
    }
    if (s.example !== undefined && out.examples === undefined) out.examples = [s.example];
    for (const [bound, exclusive] of [
      ['minimum', 'exclusiveMinimum'],
      ['maximum', 'exclusiveMaximum'],
    ] as const) {
      if (typeof s[exclusive] !== 'boolean') continue;
      delete out[exclusive];
      if (s[exclusive] === true && typeof s[bound] === 'number') {
        out[exclusive] = s[bound];
        delete out[bound];
      }
    }
    if (s.nullable === true) return nullable(out) as JsonSchema;
    return out as JsonSchema;
  }

  /**
   * Refuses `$defs` that refer to themselves through `allOf`/`anyOf`/`oneOf`/`not`/`if` alone
   * (`A: { allOf: [{ $ref: B }] }, B: { allOf: [{ $ref: A }] }`): no value could ever be checked
   * against them, and the validator would recurse until the stack overflows on every call.
   */
  checkLoops(): void {
    const edges = new Map<string, string[]>();
    for (const key of Object.keys(this.defs)) edges.set(key, inPlaceRefs(this.defs[key]));
    const state = new Map<string, 'open' | 'done'>();
    for (const start of edges.keys()) {
      if (state.has(start)) continue;
      // Iterative depth-first search: a path of [key, next edge index].
      const path: [string, number][] = [[start, 0]];
      state.set(start, 'open');
      while (path.length > 0) {
        const top = path[path.length - 1]!;
        const next = edges.get(top[0])?.[top[1]++];
        if (next === undefined) {
          state.set(top[0], 'done');
          path.pop();
        } else if (state.get(next) === 'open') {
          const loop = [...path.slice(path.findIndex(([k]) => k === next)).map(([k]) => k), next];
          throw new ConfigError(
            `Toolwright: the OpenAPI schemas of ${this.where} refer to themselves without nesting (${loop.join(' → ')}, through allOf/anyOf/oneOf/not), so no value could be checked against them. Fix the description, or leave the operation out with \`include\`.`,
          );
        } else if (!state.has(next) && edges.has(next)) {
          state.set(next, 'open');
          path.push([next, 0]);
        }
      }
    }
  }

  /** The `$defs` every converted schema so far points into. */
  definitions(): Record<string, JsonSchema> | undefined {
    return Object.keys(this.defs).length > 0 ? { ...this.defs } : undefined;
  }

  private checkPattern(source: string, at: string): void {
    // `at` starts with the operation, or is a place in the description (`#/components/schemas/Pet/pattern`).
    this.patterns.check(source, at.startsWith(this.where) ? at : `${at} (in ${this.where})`);
  }

  private annotations(s: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of ['description', 'title'] as const) if (typeof s[key] === 'string') out[key] = plainText(s[key]);
    return out;
  }

  private defFor(ref: string, at: string, depth: number): string {
    const known = this.keys.get(ref);
    if (known !== undefined) return known;
    const target = resolveRef(this.document, ref, at);
    const base =
      (ref.split('/').pop() ?? 'schema')
        .replace(/~1/g, '_')
        .replace(/~0/g, '_')
        .replace(/[^A-Za-z0-9_.-]/g, '_') || 'schema';
    let key = base;
    for (let n = 2; this.used.has(key); n++) key = `${base}_${n}`;
    this.used.add(key);
    this.keys.set(ref, key);
    // Registered before converting, so a schema that refers to itself ends at its own key.
    defineOwn(this.defs, key, this.convert(target, ref, depth));
    return key;
  }
}

function nullable(schema: Record<string, unknown>): Record<string, unknown> {
  const out = { ...schema };
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...(out.type as unknown[]), 'null'];
  else if (out.type === undefined) return { anyOf: [out, { type: 'null' }] };
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...(out.enum as unknown[]), null];
  return out;
}

/** The `$defs` keys a schema refers to at its own value (not through `properties`, `items` and the like). */
function inPlaceRefs(schema: unknown): string[] {
  const refs: string[] = [];
  const stack = [schema];
  while (stack.length > 0) {
    const s = stack.pop();
    if (typeof s !== 'object' || s === null || Array.isArray(s)) continue;
    const o = s as Record<string, unknown>;
    if (typeof o.$ref === 'string' && o.$ref.startsWith('#/$defs/')) refs.push(o.$ref.slice('#/$defs/'.length));
    for (const key of IN_PLACE_ONE) if (Object.hasOwn(o, key)) stack.push(o[key]);
    for (const key of IN_PLACE_LISTS) if (Object.hasOwn(o, key) && Array.isArray(o[key])) stack.push(...(o[key] as unknown[]));
    if (Object.hasOwn(o, 'dependentSchemas') && typeof o.dependentSchemas === 'object' && o.dependentSchemas !== null) stack.push(...Object.values(o.dependentSchemas));
  }
  return refs;
}

/** A value for an error message: short, so a description's content is not echoed at length. */
function excerpt(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
