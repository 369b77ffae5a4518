/**
 * The content-annotation check of tool results against what MCP's schema, as the SDK checks it,
 * accepts: every value the SDK's AnnotationsSchema accepts must pass
 * Toolwright's check (no false positive), and every value it refuses must be refused. Then, end to
 * end with the SDK client in both eras: valid edge values come through, and a middleware's own
 * malformed result is answered as the tool's internal error. The other fields of content blocks:
 * content-blocks-sdk-schema.e2e.test.ts.
 */
import 'reflect-metadata';
import { AnnotationsSchema } from '@modelcontextprotocol/core';
import { Tool, type MiddlewareFn } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { CONTENT_ANNOTATIONS_SHAPE, shapeProblem } from '../../core/src/registry/descriptorShapes';

const CORPUS: unknown[] = [
  {},
  { priority: 0 },
  { priority: 1 },
  { priority: -0 },
  { priority: 5e-324 },
  { priority: 1.0000001 },
  { priority: -1e-9 },
  { priority: '0.5' },
  { audience: [] },
  { audience: ['user', 'assistant'] },
  { audience: ['assistant', 'assistant'] },
  { audience: ['User'] },
  { audience: 'user' },
  { lastModified: '2026-01-31T09:30:00Z' },
  { lastModified: '2026-01-31T09:30:00.123456789Z' },
  { lastModified: '2026-01-31T09:30:00+05:30' },
  { lastModified: '2026-01-31T09:30:00-00:00' },
  { lastModified: '2024-02-29T00:00:00Z' },
  { lastModified: '2000-02-29T00:00:00Z' },
  { lastModified: '1900-02-29T00:00:00Z' },
  { lastModified: '0000-02-29T00:00:00Z' },
  { lastModified: '0004-02-29T00:00:00Z' },
  { lastModified: '0001-01-01T00:00:00Z' },
  { lastModified: '9999-12-31T23:59:59Z' },
  { lastModified: '2026-01-31T23:59:60Z' },
  { lastModified: '2026-01-31T24:00:00Z' },
  { lastModified: '2026-01-31T09:30Z' },
  { lastModified: '2026-01-31t09:30:00z' },
  { lastModified: '2026-01-31 09:30:00Z' },
  { lastModified: '2026-01-31T09:30:00+0530' },
  { lastModified: '2026-01-31T09:30:00' },
  { lastModified: '2026-01-31' },
  { lastModified: '2026-02-30T00:00:00Z' },
  { lastModified: '2026-01-31T09:30:00.Z' },
  { other: 'kept', priority: 0.5 },
];

describe('content annotations: Toolwright check against the SDK schema', () => {
  it.each(CORPUS.map((value) => [JSON.stringify(value), value]))('%s: accepted by both or refused by both', (_shown, value) => {
    const sdk = AnnotationsSchema.safeParse(value).success;
    const toolwright = shapeProblem(value, CONTENT_ANNOTATIONS_SHAPE, 'annotations') === undefined;
    expect({ toolwright }).toEqual({ toolwright: sdk });
  });
});

const EDGE_VALID = [
  { priority: 0 },
  { priority: 1 },
  { audience: [] },
  { audience: ['user', 'assistant'] },
  { lastModified: '2026-01-31T09:30:00.5+05:30' },
  { lastModified: '2026-01-31T09:30:00-00:00' },
];

class Edges {
  @Tool({ description: 'Blocks with edge annotations that MCP allows.' })
  edges() {
    return { content: EDGE_VALID.map((annotations, i) => ({ type: 'text', text: String(i), annotations })) };
  }

  @Tool({ description: 'A link block with annotations.' })
  link() {
    return [{ type: 'resource_link', uri: 'file:///x', name: 'x', annotations: { priority: 0 } }];
  }

  @Tool({ description: 'An embedded resource with annotations.' })
  embedded() {
    return { content: [{ type: 'resource', resource: { uri: 'file:///x', text: 'x' }, annotations: { audience: ['user'] } }] };
  }

  @Tool({ description: 'Year 0000 (a leap year in ISO 8601 and to the SDK) on 29 February.' })
  yearZero() {
    return { content: [{ type: 'text', text: 'x', annotations: { lastModified: '0000-02-29T00:00:00Z' } }] };
  }

  @Tool({ description: 'Replaced by the middleware.' })
  replaced() {
    return 'never seen';
  }
}

/** A middleware that answers with a result of its own, malformed. */
const malformed: MiddlewareFn = async (call, next) => (call.name === 'replaced' ? { content: [{ type: 'text', text: 'x', annotations: { priority: 7 } }] } : next());

describe.each(['legacy', 'modern'] as const)('content annotations end to end (%s)', (era) => {
  const silent = { debug() {}, info() {}, warn() {}, error() {} };

  it('edge values MCP allows come through as the tool returned them', async () => {
    const app = await createApp({ name: 'edges', version: '1.0.0', tools: [Edges], logger: silent });
    const client = await createTestClient(app, { era });
    try {
      const edges = await client.callTool({ name: 'edges', arguments: {} });
      expect(edges.isError).toBeFalsy();
      expect(edges.content.map((block) => (block as { annotations?: unknown }).annotations)).toEqual(EDGE_VALID);
      expect((await client.callTool({ name: 'link', arguments: {} })).content).toEqual([{ type: 'resource_link', uri: 'file:///x', name: 'x', annotations: { priority: 0 } }]);
      expect((await client.callTool({ name: 'embedded', arguments: {} })).content).toEqual([{ type: 'resource', resource: { uri: 'file:///x', text: 'x' }, annotations: { audience: ['user'] } }]);
    } finally {
      await client.close();
    }
  });

  it('a lastModified the SDK schema accepts (0000-02-29) comes through', async () => {
    const app = await createApp({ name: 'edges', version: '1.0.0', tools: [Edges], logger: silent });
    const client = await createTestClient(app, { era });
    try {
      expect(AnnotationsSchema.safeParse({ lastModified: '0000-02-29T00:00:00Z' }).success).toBe(true);
      expect(await client.callTool({ name: 'year_zero', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'x', annotations: { lastModified: '0000-02-29T00:00:00Z' } }] });
    } finally {
      await client.close();
    }
  });

  it("a middleware's own malformed result is answered as the tool's internal error, not a protocol error", async () => {
    const app = await createApp({ name: 'edges', version: '1.0.0', tools: [Edges], middleware: [malformed], logger: silent });
    const client = await createTestClient(app, { era });
    try {
      const answer = await client.callTool({ name: 'replaced', arguments: {} });
      expect(answer).toMatchObject({ isError: true, content: [{ type: 'text', text: "Tool 'replaced' failed with an internal error. The server log has the details." }] });
    } finally {
      await client.close();
    }
  });
});
