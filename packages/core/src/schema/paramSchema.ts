import type { Class } from '../metadata/Class';
import type { ParamArgs, ParamOptions } from '../metadata/ParamOptions';
import { dtoSchema } from './dtoSchema';
import { enumType, enumValues } from './enumValues';
import type { JsonSchema } from './JsonSchema';
import type { SchemaContext } from './SchemaContext';
import { X_MCP_HEADER } from '../headers/paramHeaders';
import { paramOptionProblems } from './paramOptionProblems';

/** How a parameter's value is turned into what the method receives, after validation. */
export type ParamShape = { readonly kind: 'plain' } | { readonly kind: 'date' } | { readonly kind: 'dto'; readonly cls: Class; readonly array: boolean };

export interface DerivedParam {
  readonly schema: JsonSchema;
  readonly shape: ParamShape;
}

const PRIMITIVES = new Map<unknown, JsonSchema>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Date, { type: 'string', format: 'date-time' }],
]);

/**
 * Derives the JSON Schema of one `@Param` from its options and its reflected type.
 * Pushes a build problem (and returns undefined) when the type cannot be known, and one for
 * each option that does not apply to the type the schema gets (`paramOptionProblems`).
 */
export function paramSchema(param: ParamArgs, designType: unknown, ctx: SchemaContext, where: string, coerce = false): DerivedParam | undefined {
  const options = param.options ?? {};
  if (options.schema) {
    ctx.problems.push(...paramOptionProblems(options, undefined, where));
    return { schema: withDocs({ ...options.schema }, options), shape: { kind: 'plain' } };
  }

  let ref: unknown;
  try {
    ref = options.type ? options.type() : designType;
  } catch (error) {
    ctx.problems.push({ where, what: `its type thunk threw: ${(error as Error).message}`, fix: 'make `type: () => X` return a class that is defined when the app starts.' });
    return undefined;
  }

  const isArray = Array.isArray(ref) || ref === Array;
  const element: unknown = Array.isArray(ref) ? (ref as readonly unknown[])[0] : isArray ? undefined : ref;

  let item: JsonSchema;
  let shape: ParamShape = { kind: 'plain' };
  if (options.enum) {
    const values = enumValues(options.enum);
    const type = enumType(values);
    item = type ? { type, enum: values } : { enum: values };
  } else if (element === undefined) {
    ctx.problems.push({
      where,
      what: 'is an array, but its element type cannot be known (TypeScript emits only `Array`)',
      fix: "give the element type: @Param('name', { type: () => [String] }).",
    });
    return undefined;
  } else if (PRIMITIVES.has(element)) {
    item = { ...PRIMITIVES.get(element)! };
    if (element === Date) shape = { kind: 'date' };
  } else if (isUnknowable(element)) {
    ctx.problems.push({
      where,
      what: `has a type that cannot be inferred (reflected as ${describeType(element)}: a union, an interface, a type literal, \`any\` or \`unknown\`)`,
      fix: "state it: @Param('name', { type: () => String }), `enum: [...]` for literal unions, `nullable: true` for `| null`, or `schema: {...}`.",
    });
    return undefined;
  } else {
    const cls = element as Class;
    item = dtoSchema(cls, ctx, { coerce });
    shape = { kind: 'dto', cls, array: isArray };
  }

  ctx.problems.push(...paramOptionProblems(options, { schema: item, isArray, cls: options.enum ? undefined : (element as Class) }, where));
  if (options.integer && item.type === 'number') item.type = 'integer';
  applyScalarConstraints(item, options);
  if (shape.kind === 'date' && isArray) shape = { kind: 'plain' }; // arrays of dates stay ISO strings

  let schema: JsonSchema = isArray ? { type: 'array', items: item } : item;
  if (isArray) {
    if (options.minItems !== undefined) schema.minItems = options.minItems;
    if (options.maxItems !== undefined) schema.maxItems = options.maxItems;
    if (options.uniqueItems) schema.uniqueItems = true;
  }
  if (options.nullable) schema = nullable(schema);
  return { schema: withDocs(schema, options), shape };
}

function applyScalarConstraints(schema: JsonSchema, o: ParamOptions): void {
  const keys = ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'format'] as const;
  for (const key of keys) if (o[key] !== undefined) (schema as Record<string, unknown>)[key] = o[key];
  if (o.pattern !== undefined) schema.pattern = typeof o.pattern === 'string' ? o.pattern : o.pattern.source;
}

function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' && !schema.enum) return { ...schema, type: [schema.type, 'null'] };
  if (schema.enum) return { ...schema, ...(typeof schema.type === 'string' ? { type: [schema.type, 'null'] } : {}), enum: [...schema.enum, null] };
  return { anyOf: [schema, { type: 'null' }] };
}

function withDocs(schema: JsonSchema, o: ParamOptions): JsonSchema {
  if (o.title !== undefined) schema.title = o.title;
  if (o.description !== undefined) schema.description = o.description;
  if (o.default !== undefined) schema.default = o.default;
  if (o.examples !== undefined) schema.examples = [...o.examples];
  if (o.header !== undefined) schema[X_MCP_HEADER] = o.header;
  return schema;
}

function isUnknowable(type: unknown): boolean {
  return type === undefined || type === Object || type === Function || type === Promise || type === Symbol || type === BigInt || typeof type !== 'function';
}

function describeType(type: unknown): string {
  if (typeof type === 'function') return type.name || 'an anonymous function';
  return String(type);
}
