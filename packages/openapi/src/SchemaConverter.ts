import { ConfigError, type JsonSchema } from '@toolwright/core';
import { defineOwn } from './defineOwn';
import { resolveRef } from './resolveRef';

/** Keywords whose value is one subschema. */
const ONE = ['items', 'additionalProperties', 'propertyNames', 'contains', 'not', 'if', 'then', 'else'];
/** Keywords whose value maps names to subschemas. */
const MAPS = ['properties', 'patternProperties', 'dependentSchemas'];
/** Keywords whose value is a list of subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** OpenAPI keywords that describe and never reject: left out of the tool's schema. */
const DROPPED = new Set(['discriminator', 'xml', 'externalDocs', 'nullable', 'example', '$schema', '$id', 'definitions', '$defs']);

/**
 * Turns the schemas of one bundled OpenAPI description into JSON Schema 2020-12 for one tool:
 * every `$ref` (recursive ones included) becomes `#/$defs/<name>`, with the target converted
 * once under `$defs`; OpenAPI 3.0's `nullable`, boolean `exclusiveMinimum`/`exclusiveMaximum`
 * and `example` become their 2020-12 forms.
 */
export class SchemaConverter {
  private readonly keys = new Map<string, string>();
  private readonly used = new Set<string>();
  private readonly defs: Record<string, JsonSchema> = {};

  constructor(private readonly document: unknown) {}

  convert(schema: unknown, at: string): JsonSchema {
    if (typeof schema === 'boolean') return schema as unknown as JsonSchema;
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new ConfigError(`Toolwright: the OpenAPI schema at ${at} is ${JSON.stringify(schema)}, not a schema object. Fix the description.`);
    }
    const s = schema as Record<string, unknown>;
    if (typeof s.$ref === 'string') return { ...this.annotations(s), $ref: `#/$defs/${this.defFor(s.$ref, at)}` } as JsonSchema;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(s)) {
      if (DROPPED.has(key)) continue;
      const value = s[key];
      if (ONE.includes(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) defineOwn(out, key, this.convert(value, `${at}/${key}`));
      else if (MAPS.includes(key) && typeof value === 'object' && value !== null) {
        const map: Record<string, JsonSchema> = {};
        for (const name of Object.keys(value)) defineOwn(map, name, this.convert((value as Record<string, unknown>)[name], `${at}/${key}/${name}`));
        defineOwn(out, key, map);
      } else if (LISTS.includes(key) && Array.isArray(value))
        defineOwn(
          out,
          key,
          value.map((sub, i) => this.convert(sub, `${at}/${key}/${i}`)),
        );
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

  /** The `$defs` every converted schema so far points into. */
  definitions(): Record<string, JsonSchema> | undefined {
    return Object.keys(this.defs).length > 0 ? { ...this.defs } : undefined;
  }

  private annotations(s: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const key of ['description', 'title'] as const) if (typeof s[key] === 'string') out[key] = s[key];
    return out;
  }

  private defFor(ref: string, at: string): string {
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
    defineOwn(this.defs, key, this.convert(target, ref));
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
