/**
 * The content-block check of tool and prompt results against what MCP's schema, as the SDK checks
 * it, accepts. Differential: over a corpus of blocks, valid and malformed, Toolwright's verdict
 * (`contentBlockProblem`) must be the SDK's `ContentBlockSchema` verdict, and what `normalizeResult`
 * lets out must be a `CallToolResult` the SDK accepts, the blocks as the tool returned them. Then,
 * end to end with the SDK client in both eras: a tool's malformed block is answered as the tool's
 * internal error (not a protocol error, no validation details on the wire), the log names the
 * field, and the server serves on; a prompt's, as `-32603 Internal error`.
 */
import 'reflect-metadata';
import { CallToolResultSchema, ContentBlockSchema, GetPromptResultSchema } from '@modelcontextprotocol/core';
import { Param, Prompt, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { ContentBlock } from '../../core/src/content/ToolResult';
import { contentBlockProblem } from '../../core/src/invoke/contentBlockProblem';
import { isBase64 } from '../../core/src/invoke/isBase64';
import { MalformedResult } from '../../core/src/invoke/MalformedResult';
import { normalizePromptResult } from '../../core/src/invoke/normalizePromptResult';
import { normalizeResult } from '../../core/src/invoke/normalizeResult';
import { fuzzRuns } from '../../core/test/fixtures/fuzzRuns';

const PNG = 'iVBORw0KGgo=';
const LINK = { type: 'resource_link', uri: 'file:///x', name: 'x' };

const CORPUS: Record<string, unknown>[] = [
  // text
  { type: 'text', text: '' },
  { type: 'text', text: 'x', extra: { kept: true } },
  { type: 'text', text: 'x', _meta: {} },
  { type: 'text', text: 'x', _meta: { 'a/b': 1 } },
  { type: 'text', text: 'x', _meta: [] },
  { type: 'text', text: 'x', _meta: null },
  { type: 'text', text: 'x', _meta: 'm' },
  { type: 'text', text: 'x', annotations: { priority: 0.5 } },
  { type: 'text', text: 'x', annotations: { priority: 2 } },
  { type: 'text', text: 'x', annotations: [] },
  { type: 'text', text: 'x', annotations: null },
  { type: 'text', text: 5 },
  { type: 'text', text: null },
  { type: 'text' },
  // image and audio
  { type: 'image', data: PNG, mimeType: 'image/png' },
  { type: 'image', data: '', mimeType: 'image/png' },
  { type: 'image', data: 'iVBO Rw0K\nGgo=', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0KGgo', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0KGg==', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0KG', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0K=Ggo', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0KGgo===', mimeType: 'image/png' },
  { type: 'image', data: 'iVBORw0KGg-_', mimeType: 'image/png' },
  { type: 'image', data: 'not base64!', mimeType: 'image/png' },
  { type: 'image', data: PNG },
  { type: 'image', mimeType: 'image/png' },
  { type: 'image', data: PNG, mimeType: 7 },
  { type: 'image', data: 7, mimeType: 'image/png' },
  { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
  { type: 'audio', data: 'UklGRg=', mimeType: 'audio/wav' },
  { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav', annotations: { audience: ['user'] } },
  // resource_link
  LINK,
  { ...LINK, title: 'X', description: 'd', mimeType: 'text/plain', size: 0, annotations: { priority: 1 }, _meta: { k: 1 }, extra: 1 },
  { ...LINK, size: 'big' },
  { ...LINK, size: NaN },
  { ...LINK, size: Infinity },
  { ...LINK, size: -1 },
  { ...LINK, size: 1.5 },
  { ...LINK, title: 5 },
  { ...LINK, description: false },
  { ...LINK, mimeType: ['text/plain'] },
  { ...LINK, _meta: 'm' },
  { ...LINK, icons: [] },
  { ...LINK, icons: [{ src: 'https://x/i.png', mimeType: 'image/png', sizes: ['48x48'], theme: 'dark' }] },
  { ...LINK, icons: [{ mimeType: 'image/png' }] },
  { ...LINK, icons: [{ src: 'https://x/i.png', theme: 'blue' }] },
  { ...LINK, icons: [{ src: 'https://x/i.png', sizes: '48x48' }] },
  { ...LINK, icons: { src: 'https://x/i.png' } },
  { type: 'resource_link', uri: 'file:///x' },
  { type: 'resource_link', name: 'x' },
  { type: 'resource_link', uri: 5, name: 'x' },
  { type: 'resource_link', uri: 'file:///x', name: null },
  // resource
  { type: 'resource', resource: { uri: 'file:///x', text: 'x' } },
  { type: 'resource', resource: { uri: 'file:///x', text: '', mimeType: 'text/plain', _meta: {} } },
  { type: 'resource', resource: { uri: 'file:///x', blob: PNG } },
  { type: 'resource', resource: { uri: 'file:///x', blob: 'a' } },
  { type: 'resource', resource: { uri: 'file:///x', blob: 5 } },
  { type: 'resource', resource: { uri: 'file:///x', text: 5 } },
  { type: 'resource', resource: { uri: 'file:///x', text: 5, blob: PNG } },
  { type: 'resource', resource: { uri: 'file:///x', text: 'x', blob: 'a' } },
  { type: 'resource', resource: { uri: 'file:///x', text: null, blob: 'a' } },
  { type: 'resource', resource: { uri: 'file:///x' } },
  { type: 'resource', resource: { text: 'x' } },
  { type: 'resource', resource: { uri: 5, text: 'x' } },
  { type: 'resource', resource: { uri: 'file:///x', text: 'x', mimeType: 5 } },
  { type: 'resource', resource: { uri: 'file:///x', text: 'x', _meta: [] } },
  { type: 'resource', resource: 'file:///x' },
  { type: 'resource', resource: [] },
  { type: 'resource' },
  { type: 'resource', resource: { uri: 'file:///x', text: 'x' }, annotations: { lastModified: 'yesterday' } },
  { type: 'resource', resource: { uri: 'file:///x', text: 'x' }, _meta: 5 },
  // not a block at all
  { type: 'video', data: PNG, mimeType: 'video/mp4' },
  { type: 5, text: 'x' },
  { text: 'x' },
];

describe('content blocks: Toolwright check against the SDK schema', () => {
  it.each(CORPUS.map((block) => [shown(block), block]))('%s: accepted by both or refused by both', (_shown, block) => {
    const sdk = ContentBlockSchema.safeParse(block).success;
    const toolwright = contentBlockProblem(block as unknown as ContentBlock, 'block') === undefined;
    expect({ toolwright }).toEqual({ toolwright: sdk });
  });

  it.each(CORPUS.map((block) => [shown(block), block]))('%s: what normalizeResult lets out is a CallToolResult the SDK accepts', (_shown, block) => {
    for (const returned of [{ content: [block] }, block, [block]]) {
      let result: unknown;
      try {
        result = normalizeResult(returned);
      } catch (error) {
        expect(error).toBeInstanceOf(MalformedResult);
        expect(ContentBlockSchema.safeParse(block).success).toBe(false);
        continue;
      }
      expect(CallToolResultSchema.safeParse(result).success).toBe(true);
      // A block MCP accepts goes out as the tool returned it; one Toolwright does not take for a block is data, sent as JSON text.
      if (ContentBlockSchema.safeParse(block).success) expect((result as { content: unknown[] }).content[0]).toBe(block);
    }
  });

  it.each(CORPUS.map((block) => [shown(block), block]))('%s: what normalizePromptResult lets out is a GetPromptResult the SDK accepts', (_shown, block) => {
    for (const returned of [block, { role: 'assistant', content: block }, { messages: [{ role: 'user', content: block }] }]) {
      let result: unknown;
      try {
        result = normalizePromptResult(returned, 'p');
      } catch (error) {
        // Blocks Toolwright does not take for one are refused as unsupported messages (a ToolwrightError).
        if (error instanceof MalformedResult) expect(ContentBlockSchema.safeParse(block).success).toBe(false);
        continue;
      }
      expect(GetPromptResultSchema.safeParse(result).success).toBe(true);
    }
  });

  it("a result's isError and _meta are checked as the SDK checks them", () => {
    const results: Record<string, unknown>[] = [
      { isError: true },
      { isError: 'yes' },
      { isError: null },
      { _meta: {} },
      { _meta: { 'io.modelcontextprotocol/serverInfo': 5 } },
      { _meta: [] },
      { _meta: 'm' },
      { structuredContent: 5 },
    ];
    for (const fields of results) {
      const returned = { content: [{ type: 'text', text: 'x' }], ...fields };
      const sdk = CallToolResultSchema.safeParse(returned).success;
      const toolwright = (() => {
        try {
          return normalizeResult(returned) === returned;
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedResult);
          return false;
        }
      })();
      expect({ fields, toolwright }).toEqual({ fields, toolwright: sdk });
    }
  });

  it("a prompt result's description and _meta are checked as the SDK checks them", () => {
    for (const fields of [{ description: 'd' }, { description: 5 }, { _meta: {} }, { _meta: [] }] as Record<string, unknown>[]) {
      const returned = { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], ...fields };
      const sdk = GetPromptResultSchema.safeParse(returned).success;
      const toolwright = (() => {
        try {
          normalizePromptResult(returned, 'p');
          return true;
        } catch (error) {
          expect(error).toBeInstanceOf(MalformedResult);
          return false;
        }
      })();
      expect({ fields, toolwright }).toEqual({ fields, toolwright: sdk });
    }
  });
});

describe('base64: isBase64 against atob, which the SDK schema uses', () => {
  it('agrees on every string of up to 6 characters over a small alphabet, and on long ones', () => {
    const alphabet = ['A', 'z', '+', '=', ' ', '\n', '-', 'é'];
    const disagreements: string[] = [];
    const check = (value: string) => {
      let decodes = true;
      try {
        atob(value);
      } catch {
        decodes = false;
      }
      if (isBase64(value) !== decodes) disagreements.push(JSON.stringify(value));
    };
    const walk = (prefix: string) => {
      check(prefix);
      if (prefix.length < 5) for (const c of alphabet) walk(prefix + c);
    };
    walk('');
    // Those of 6 characters (a group and a tail of two, a group between blanks...): every one of them in the full run,
    // a share spread over all of them in the quick loop (fuzzRuns), where atob's refusals cost most of the time.
    // An odd step is a permutation of the 8^6 indices, so the full run's share visits each string once.
    const sixes = alphabet.length ** 6;
    for (let k = 0; k < fuzzRuns(sixes); k++) {
      let index = (k * 40_503) % sixes;
      let value = '';
      for (let place = 0; place < 6; place++, index = Math.floor(index / alphabet.length)) value += alphabet[index % alphabet.length];
      check(value);
    }
    for (const value of ['A'.repeat(1 << 20), `${'A'.repeat((1 << 20) - 2)}==`, `${'A'.repeat(1 << 20)}=`, `${'A'.repeat(1 << 19)}\n${'A'.repeat(1 << 19)}`]) check(value);
    expect(disagreements).toEqual([]);
  });
});

/** A corpus entry as a test title, short and free of NaN's disguise as null. */
function shown(block: unknown): string {
  return JSON.stringify(block, (_key, value: unknown) => (typeof value === 'number' && !Number.isFinite(value) ? String(value) : value)).slice(0, 120);
}

/** What each tool returns, by name: the review's cases and a few more, each with the field its log line names. */
const MALFORMED: Record<string, [returned: unknown, place: RegExp]> = {
  no_uri: [{ content: [{ type: 'resource', resource: { text: 'x' } }] }, /result\.content\[0\]\.resource\.uri is missing/],
  big_size: [{ content: [LINK, { ...LINK, size: 'big' }] }, /result\.content\[1\]\.size is a string, not a number/],
  nan_size: [[{ ...LINK, size: NaN }], /result\.content\[0\]\.size is NaN, not a finite number/],
  text_contents: [{ type: 'resource', resource: { uri: 'file:///x', text: 5 } }, /result\.content\[0\]\.resource\.text is a number, not a string/],
  bad_blob: [{ content: [{ type: 'resource', resource: { uri: 'file:///x', blob: 'a' } }] }, /result\.content\[0\]\.resource\.blob is not base64/],
  bad_data: [{ content: [{ type: 'image', data: 'not base64!', mimeType: 'image/png' }] }, /result\.content\[0\]\.data is not base64/],
  block_meta: [{ content: [{ type: 'text', text: 'x', _meta: 'm' }] }, /result\.content\[0\]\._meta is a string, not an object/],
  icon: [{ content: [{ ...LINK, icons: [{ theme: 'dark' }] }] }, /result\.content\[0\]\.icons\[0\]\.src is missing/],
  is_error: [{ content: [], isError: 'no' }, /result\.isError is a string, not a boolean/],
  result_meta: [{ content: [], _meta: [1] }, /result\._meta is an array, not an object/],
};

class Blocks {
  @Tool({ description: 'Returns the malformed result of the given case.' })
  malformed(@Param('which') which: string) {
    return Object.hasOwn(MALFORMED, which) ? MALFORMED[which][0] : 'no such case';
  }

  @Tool({ description: 'A complete result of a tool with an output schema, its embedded blob not base64.', outputSchema: { type: 'object' } })
  withSchema() {
    return {
      content: [
        { type: 'text', text: '{}' },
        { type: 'resource', resource: { uri: 'file:///x', blob: 'a' } },
      ],
      structuredContent: {},
    };
  }

  @Tool({ description: 'Objects shaped like blocks but lacking a required field: data, sent as JSON text.' })
  data() {
    return [
      { type: 'image', url: 'https://example.com/a.png' },
      { type: 'resource_link', uri: 'file:///x' },
    ];
  }

  @Tool({ description: 'Blocks of every type that MCP accepts.' })
  fine() {
    return {
      content: [
        { type: 'text', text: 'x', extra: 1 },
        { type: 'image', data: 'iVBO Rw0K\nGgo=', mimeType: 'image/png' },
        { ...LINK, size: 0, icons: [{ src: 'https://x/i.png' }] },
        { type: 'resource', resource: { uri: 'file:///x', text: 5, blob: PNG } },
      ],
    };
  }
}

class Prompts {
  @Prompt({ description: 'A message whose embedded resource has no uri.' })
  noUri() {
    return { role: 'user', content: { type: 'resource', resource: { text: 'x' } } };
  }
}

describe.each(['legacy', 'modern'] as const)('malformed content blocks end to end (%s)', (era) => {
  const errors: string[] = [];
  const logger = { debug() {}, info() {}, warn() {}, error: (message: string, ...rest: unknown[]) => void errors.push([message, ...rest.map(String)].join(' ')) };

  it("answers each with the tool's internal error, names the field in the log only, and serves on", async () => {
    const app = await createApp({ name: 'blocks', version: '1.0.0', tools: [Blocks], logger });
    const client = await createTestClient(app, { era });
    try {
      for (const [which, [, place]] of Object.entries(MALFORMED)) {
        errors.length = 0;
        const answer = await client.callTool({ name: 'malformed', arguments: { which } });
        expect({ which, answer }).toMatchObject({
          which,
          answer: { isError: true, content: [{ type: 'text', text: "Tool 'malformed' failed with an internal error. The server log has the details." }] },
        });
        expect(answer.content).toHaveLength(1);
        expect(errors.join('\n')).toMatch(/tool 'malformed' returned a malformed result/);
        expect(errors.join('\n')).toMatch(place);
      }
      errors.length = 0;
      expect(await client.callTool({ name: 'with_schema', arguments: {} })).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: "Tool 'with_schema' failed with an internal error. The server log has the details." }],
      });
      expect(errors.join('\n')).toMatch(/result\.content\[1\]\.resource\.blob is not base64/);
      const fine = await client.callTool({ name: 'fine', arguments: {} });
      expect(fine.isError).toBeFalsy();
      expect(fine.content).toHaveLength(4);
      const data = await client.callTool({ name: 'data', arguments: {} });
      expect(data.content).toEqual([{ type: 'text', text: JSON.stringify(new Blocks().data()) }]);
    } finally {
      await client.close();
    }
  });

  it("answers a prompt's malformed block with -32603 Internal error, the field in the log only", async () => {
    const app = await createApp({ name: 'blocks', version: '1.0.0', tools: [Prompts], logger });
    const client = await createTestClient(app, { era });
    try {
      errors.length = 0;
      const refusal = await client.getPrompt({ name: 'no_uri', arguments: {} }).then(
        () => undefined,
        (error: unknown) => error as { code?: unknown; message?: string },
      );
      expect(refusal?.code).toBe(-32603);
      expect(refusal?.message).toBe("The prompt 'no_uri' failed with an internal error. The server log has the details.");
      expect(errors.join('\n')).toMatch(/result\.messages\[0\]\.content\.resource\.uri is missing/);
    } finally {
      await client.close();
    }
  });
});
