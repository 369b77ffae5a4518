/**
 * The type MCP gives each field of a listed descriptor that comes from a decorator option,
 * and the type of each option that becomes a JSON Schema keyword: a type name (`'array'` for
 * an array of anything), `[shape]` for an array of that shape, or a table for an object whose
 * named fields have those shapes (others are left as they are). Clients check every descriptor
 * of a list against MCP's schema, and one field of another type makes the whole list fail for
 * every member, so the build refuses it.
 */
export type DescriptorShape = 'string' | 'number' | 'boolean' | 'object' | 'array' | readonly [DescriptorShape] | { readonly [field: string]: DescriptorShape };

const ICON: DescriptorShape = { src: 'string', mimeType: 'string', sizes: ['string'], theme: 'string' };
const COMMON = { name: 'string', title: 'string', description: 'string', icons: [ICON], _meta: 'object' } as const;

export const TOOL_SHAPE: DescriptorShape = {
  ...COMMON,
  annotations: { title: 'string', readOnlyHint: 'boolean', destructiveHint: 'boolean', idempotentHint: 'boolean', openWorldHint: 'boolean' },
};
export const PROMPT_SHAPE: DescriptorShape = { ...COMMON, arguments: [{ title: 'string', description: 'string' }] };
/** Resources and resource templates (a template has no `size`: the build refuses one). */
export const RESOURCE_SHAPE: DescriptorShape = {
  ...COMMON,
  mimeType: 'string',
  size: 'number',
  annotations: { audience: ['string'], priority: 'number', lastModified: 'string' },
};

/** `@Param` options that become JSON Schema keywords of the argument (or name its header). */
export const PARAM_OPTIONS_SHAPE: DescriptorShape = {
  title: 'string',
  description: 'string',
  format: 'string',
  header: 'string',
  optional: 'boolean',
  nullable: 'boolean',
  integer: 'boolean',
  uniqueItems: 'boolean',
  ...Object.fromEntries(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf', 'minLength', 'maxLength', 'minItems', 'maxItems'].map((k) => [k, 'number'])),
};

/** `@Property` options, which become JSON Schema keywords of the DTO property (or name its header). */
export const PROPERTY_OPTIONS_SHAPE: DescriptorShape = { title: 'string', description: 'string', deprecated: 'boolean', header: 'string', examples: 'array' };

/** Where `value` strays from `shape`, as `annotations.readOnlyHint is a string, not a boolean`; undefined when it does not. */
export function shapeProblem(value: unknown, shape: DescriptorShape, at = ''): string | undefined {
  if (typeof shape === 'string') return kindOf(value) === shape ? undefined : `${at} is ${article(kindOf(value))}, not ${article(shape)}`;
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return `${at} is ${article(kindOf(value))}, not an array`;
    for (let i = 0; i < value.length; i++) {
      const problem = shapeProblem(value[i], shape[0] as DescriptorShape, `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (kindOf(value) !== 'object') return `${at} is ${article(kindOf(value))}, not an object`;
  const fields = value as Record<string, unknown>;
  for (const [field, fieldShape] of Object.entries(shape as Record<string, DescriptorShape>)) {
    if (!Object.hasOwn(fields, field) || fields[field] === undefined) continue;
    const problem = shapeProblem(fields[field], fieldShape, at === '' ? field : `${at}.${field}`);
    if (problem) return problem;
  }
  return undefined;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function article(kind: string): string {
  return kind === 'null' ? 'null' : `${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}`;
}
