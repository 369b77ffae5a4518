import 'reflect-metadata';
import { BuildError, Tool, TransformTools } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient, type TestEra } from '@toolwright/server/testing';

/**
 * `@Tool({ outputSchema })`, the raw JSON Schema of a structured result (what sources without
 * classes, such as OpenAPI descriptions, give), and transforms on arguments whose names are
 * Object.prototype members. SDK v2 client in memory, both eras.
 */
const reportSchema = { type: 'object' as const, required: ['total'], properties: { total: { type: 'integer' as const }, note: { type: 'string' as const } } };

class Reports {
  @Tool({ description: 'A report.', outputSchema: reportSchema })
  report() {
    return { total: 3, note: 'ok' };
  }

  @Tool({ description: 'A report that breaks its schema.', outputSchema: reportSchema })
  broken() {
    return { total: 'three' };
  }

  @Tool({
    description: 'Arguments named like Object.prototype members.',
    inputSchema: { type: 'object', properties: { constructor: { type: 'string' as const }, toString: { type: 'integer' as const, maximum: 9 } } },
  })
  odd(input: Record<string, unknown>) {
    return { seen: Object.entries(input) };
  }
}

@TransformTools({ odd: { arguments: { constructor: { value: 'fixed' }, toString: { narrow: { maximum: 3 } } } } })
class OddReports extends Reports {}

describe.each(['legacy', 'modern'] as TestEra[])('%s era', (era) => {
  it('advertises the raw output schema, sends a matching object as structuredContent, and refuses one that does not match', async () => {
    const client = await createTestClient(await createApp({ name: 'r', version: '1', tools: [OddReports], logger: { debug() {}, info() {}, warn() {}, error() {} } }), { era });
    const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
    expect(tools.get('report')!.outputSchema).toEqual(reportSchema);
    const report = await client.callTool({ name: 'report', arguments: {} });
    expect(report.structuredContent).toEqual({ total: 3, note: 'ok' });
    expect(report.content).toEqual([{ type: 'text', text: '{"total":3,"note":"ok"}' }]);
    const broken = await client.callTool({ name: 'broken', arguments: {} });
    expect(broken.isError).toBe(true);
    expect(broken.content).toEqual([{ type: 'text', text: "Tool 'broken' failed: its result did not match the declared output schema. The server log has the details." }]);

    expect(Object.keys(tools.get('odd')!.inputSchema.properties!)).toEqual(['toString']);
    const odd = await client.callTool({ name: 'odd', arguments: { toString: 2 } });
    expect(odd.structuredContent ?? JSON.parse((odd.content as { text: string }[])[0]!.text)).toEqual({
      seen: [
        ['toString', 2],
        ['constructor', 'fixed'],
      ],
    });
    const sent = await client.callTool({ name: 'odd', arguments: { constructor: 'mine', toString: 5 } });
    expect((sent.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for tool 'odd':\n- constructor: is set by the server.*\n- toString: /);
    await client.close();
  });
});

it('refuses an outputSchema beside output, and one whose root is not an object', async () => {
  class Both {
    @Tool({ outputSchema: { type: 'object' }, output: class Out {} })
    a() {
      return {};
    }
    @Tool({ outputSchema: { type: 'array' } as never })
    b() {
      return [];
    }
  }
  const error = (await createApp({ name: 'x', version: '1', tools: [Both] }).catch((e: unknown) => e)) as BuildError;
  expect(error).toBeInstanceOf(BuildError);
  expect(error.problems.map((p) => `${p.where}: ${p.what}`)).toEqual(['Both.a: has both `output` and `outputSchema`', 'Both.b: has an `outputSchema` whose root is not `type: "object"`']);
});
