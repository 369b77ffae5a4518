import { isCalendarDay } from '../validation/isCalendarDay';

/**
 * The type MCP gives each field of a listed descriptor that comes from a decorator option,
 * and the type of each option that becomes a JSON Schema keyword: a type name (`'array'` for
 * an array of anything), `[shape]` for an array of that shape, or a table for an object whose
 * named fields have those shapes (others are left as they are). Clients check every descriptor
 * of a list against MCP's schema, and one field of another type makes the whole list fail for
 * every member, so the build refuses it.
 */
export type DescriptorShape = 'string' | 'number' | 'boolean' | 'object' | 'array' | readonly [DescriptorShape] | { readonly [field: string]: DescriptorShape } | ValueRule;

/** A value MCP narrows beyond its type (an enum, a range, a date format): how it strays at `at`, or undefined. */
export type ValueRule = (value: unknown, at: string) => string | undefined;

/** One of the given strings. */
const oneOf =
  (...allowed: string[]): ValueRule =>
  (value, at) =>
    allowed.includes(value as string) ? undefined : `${at} is ${JSON.stringify(value) ?? String(value)}, not one of ${allowed.map((a) => `'${a}'`).join(', ')}`;

/** A number from 0 to 1 (a resource's or a content block's `priority`). */
const fraction: ValueRule = (value, at) => (typeof value === 'number' && value >= 0 && value <= 1 ? undefined : `${at} is ${JSON.stringify(value) ?? String(value)}, not a number from 0 to 1`);

/** An RFC 3339 date-time with seconds and a `Z` or an offset, on a real calendar day, as MCP's schema checks `lastModified`. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/;
const dateTime: ValueRule = (value, at) => {
  const m = typeof value === 'string' ? DATE_TIME.exec(value) : null;
  return m && isCalendarDay(Number(m[1]), Number(m[2]), Number(m[3]))
    ? undefined
    : `${at} is ${JSON.stringify(value) ?? String(value)}, not an ISO 8601 date-time with seconds and a time zone (such as '2026-01-31T09:30:00Z')`;
};

const ICON_FIELDS: DescriptorShape = { src: 'string', mimeType: 'string', sizes: ['string'], theme: oneOf('light', 'dark') };
/** An icon: its fields, and `src`, which MCP requires. */
export const ICON: ValueRule = (value, at) =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && (value as { src?: unknown }).src === undefined
    ? `${at}.src is missing (an icon needs its URL)`
    : shapeProblem(value, ICON_FIELDS, at);
const COMMON = { name: 'string', title: 'string', description: 'string', icons: [ICON], _meta: 'object' } as const;

/** What an app sends about itself (`serverInfo` of `initialize` and `server/discover`, and its `instructions`), beside the name and version every app must give. */
export const SERVER_INFO_SHAPE: DescriptorShape = { title: 'string', description: 'string', websiteUrl: 'string', icons: [ICON], instructions: 'string' };

/** A resource's or a content block's `annotations`: who it is for, how much it matters, when it last changed. */
export const CONTENT_ANNOTATIONS_SHAPE: DescriptorShape = { audience: [oneOf('user', 'assistant')], priority: fraction, lastModified: dateTime };

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
  annotations: CONTENT_ANNOTATIONS_SHAPE,
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
  if (typeof shape === 'function') return shape(value, at);
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
