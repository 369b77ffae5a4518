import type { Schema } from './Contract';

/** A schema's type in one short phrase: `string`, `"a" | "b"`, `number[]`, `Address` (a $ref). */
export function schemaType(schema: Schema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (schema.$ref) return schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  if (schema.type === 'array') return `${schema.items ? schemaType(schema.items) : 'any'}[]`;
  if (Array.isArray(schema.type)) return schema.type.join(' | ');
  return schema.type ?? (schema.anyOf || schema.oneOf ? 'union' : 'any');
}
