import type { ContentBlock } from '../content/ToolResult';
import { CONTENT_ANNOTATIONS_SHAPE, ICON, shapeProblem, type DescriptorShape, type ValueRule } from '../registry/descriptorShapes';
import { isBase64 } from './isBase64';

/** A string that decodes as base64 (an image's or audio's `data`, a resource's `blob`); the value itself is left out of the message, as it may be megabytes long. */
const base64: ValueRule = (value, at) =>
  shapeProblem(value, 'string', at) ?? (isBase64(value as string) ? undefined : `${at} is not base64 (letters, digits, '+' and '/', with '=' only as padding at the end)`);

/** A number JSON can carry: `NaN` and the infinities are written as null. */
const finite: ValueRule = (value, at) => shapeProblem(value, 'number', at) ?? (Number.isFinite(value) ? undefined : `${at} is ${String(value)}, not a finite number`);

const CONTENTS_FIELDS: DescriptorShape = { uri: 'string', mimeType: 'string', _meta: 'object' };

/** An embedded resource's `resource`: its `uri`, and its contents as `text` or as a base64 `blob` (either one that is well formed will do). */
const resourceContents: ValueRule = (value, at) => {
  const contents = value as { uri?: unknown; text?: unknown; blob?: unknown };
  const problem = shapeProblem(value, CONTENTS_FIELDS, at) ?? (contents.uri === undefined ? `${at}.uri is missing (the URI the contents were read from)` : undefined);
  if (problem !== undefined) return problem;
  if (typeof contents.text === 'string') return undefined;
  if (contents.blob !== undefined) return base64(contents.blob, `${at}.blob`);
  if (contents.text !== undefined) return shapeProblem(contents.text, 'string', `${at}.text`);
  return `${at} has neither text nor blob (the contents: a string as text, or binary data as a base64 blob)`;
};

/** What a block of one type must carry (each required field with what it holds) and the shape of every field MCP constrains. Other fields are left as they are: MCP allows them. */
interface BlockSchema {
  readonly required: readonly (readonly [field: string, holds: string])[];
  readonly shape: DescriptorShape;
}

const BLOCK_FIELDS = { annotations: CONTENT_ANNOTATIONS_SHAPE, _meta: 'object' } as const;
const MEDIA: BlockSchema = {
  required: [
    ['data', 'the bytes, in base64'],
    ['mimeType', "the media type, such as 'image/png'"],
  ],
  shape: { data: base64, mimeType: 'string', ...BLOCK_FIELDS },
};

/** MCP's content blocks by `type` (2025-11-25 and 2026-07-28 agree on them). */
const BLOCKS: ReadonlyMap<string, BlockSchema> = new Map<string, BlockSchema>([
  ['text', { required: [['text', 'the text itself']], shape: { text: 'string', ...BLOCK_FIELDS } }],
  ['image', MEDIA],
  ['audio', MEDIA],
  ['resource', { required: [['resource', 'the embedded contents: a uri, and text or a base64 blob']], shape: { resource: resourceContents, ...BLOCK_FIELDS } }],
  [
    'resource_link',
    {
      required: [
        ['uri', 'the URI of the linked resource'],
        ['name', 'a name for the resource'],
      ],
      shape: { uri: 'string', name: 'string', title: 'string', description: 'string', mimeType: 'string', size: finite, icons: [ICON], ...BLOCK_FIELDS },
    },
  ],
]);

/**
 * Where a content block strays from MCP's `ContentBlock` schema, as
 * `result.content[0].resource.uri is missing (the URI the contents were read from)`; undefined
 * when it does not. Every field the schema constrains is looked at: the type, the required fields,
 * the type of each optional one, base64 data, finite sizes, icons and annotations (their ranges).
 */
export function contentBlockProblem(block: ContentBlock, at: string): string | undefined {
  const type = (block as { type?: unknown }).type;
  const schema = typeof type === 'string' ? BLOCKS.get(type) : undefined;
  if (schema === undefined) return `${at}.type is ${JSON.stringify(type) ?? String(type)}, not one of ${[...BLOCKS.keys()].map((t) => `'${t}'`).join(', ')}`;
  for (const [field, holds] of schema.required) {
    if ((block as unknown as Record<string, unknown>)[field] === undefined) return `${at}.${field} is missing (${holds})`;
  }
  return shapeProblem(block, schema.shape, at);
}
