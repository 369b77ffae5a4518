import type { Schema } from './Contract';

/** A schema's type in one short phrase: `string`, `"a" | "b"`, `number[]`, `Address` (a $ref). A keyword of the wrong shape is passed over. */
export function schemaType(schema: Schema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (typeof schema.$ref === 'string') return schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  if (schema.type === 'array') return `${typeof schema.items === 'object' && schema.items !== null ? schemaType(schema.items) : 'any'}[]`;
  if (Array.isArray(schema.type)) return schema.type.map(String).join(' | ');
  return typeof schema.type === 'string' ? schema.type : schema.anyOf || schema.oneOf ? 'union' : 'any';
}
