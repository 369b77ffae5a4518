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

class CompleteReports {
  @Tool({ outputSchema: reportSchema })
  matching() {
    return { content: [{ type: 'text', text: 'three' }], structuredContent: { total: 3 } };
  }
  @Tool({ outputSchema: reportSchema })
  mismatched() {
    return { content: [{ type: 'text', text: 'three' }], structuredContent: { total: 'three' } };
  }
  @Tool({ outputSchema: reportSchema })
  unstructured() {
    return { content: [{ type: 'text', text: 'three' }] };
  }
  @Tool({ outputSchema: reportSchema })
  failing() {
    return { content: [{ type: 'text', text: 'no report today' }], isError: true };
  }
}

describe.each(['legacy', 'modern'] as TestEra[])('%s era: a complete result of a tool with an output schema', (era) => {
  it('goes out as returned when its structuredContent matches or it reports an error; else the call fails and the log says why (the spec: structured results MUST conform)', async () => {
    const errors: string[] = [];
    const logger = { debug() {}, info() {}, warn() {}, error: (message: string) => void errors.push(message) };
    const client = await createTestClient(await createApp({ name: 'r', version: '1', tools: [CompleteReports], logger }), { era });
    expect(await client.callTool({ name: 'matching', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'three' }], structuredContent: { total: 3 } });
    expect(await client.callTool({ name: 'failing', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'no report today' }], isError: true });
    for (const name of ['mismatched', 'unstructured']) {
      const failed = await client.callTool({ name, arguments: {} });
      expect([name, failed.isError, failed.content, failed.structuredContent]).toEqual([
        name,
        true,
        [{ type: 'text', text: `Tool '${name}' failed: its result did not match the declared output schema. The server log has the details.` }],
        undefined,
      ]);
    }
    expect(errors).toEqual([
      "tool 'mismatched' returned structuredContent that does not match its output schema",
      "tool 'unstructured' has an output schema, but returned a complete result without structuredContent: return the value itself, or add structuredContent",
    ]);
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
