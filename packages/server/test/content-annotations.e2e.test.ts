import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { ERAS } from './fixtures/eras';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * MCP gives a content block's annotations a range: `priority` from 0 to 1, `audience` of 'user'
 * and 'assistant', `lastModified` an ISO 8601 date-time. A tool result whose blocks stray from it
 * is refused like any other malformed result: the client gets the tool's internal error, the log
 * names the place, and the server serves on. Blocks without annotations are not looked at.
 */
class Annotated {
  @Tool({ description: 'A block of priority 2.' })
  tooHigh() {
    return { content: [{ type: 'text', text: 'x', annotations: { priority: 2 } }] };
  }

  @Tool({ description: 'A second block of priority -1, returned as an array of blocks.' })
  negative() {
    return [
      { type: 'text', text: 'fine' },
      { type: 'text', text: 'x', annotations: { priority: -1 } },
    ];
  }

  @Tool({ description: 'One block for an audience MCP does not name.' })
  audience() {
    return { type: 'text', text: 'x', annotations: { audience: ['robot'] } };
  }

  @Tool({ description: 'A complete result of a tool with an output schema, with priority 1.5.', outputSchema: { type: 'object' } })
  withSchema() {
    return { content: [{ type: 'text', text: '{}', annotations: { priority: 1.5 } }], structuredContent: {} };
  }

  @Tool({ description: 'Annotations within range.' })
  fine() {
    return { content: [{ type: 'text', text: 'fine', annotations: { priority: 0.5, audience: ['user'], lastModified: '2026-01-31T09:30:00Z' } }] };
  }
}

const errors: string[] = [];
const logger = { debug() {}, info() {}, warn() {}, error: (message: string, ...rest: unknown[]) => void errors.push([message, ...rest.map(String)].join(' ')) };

describe.each(ERAS)('content annotations out of range ($name)', (era) => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'annotated', version: '1.0.0', tools: [Annotated], logger });
  });

  it('answers each such result as a failed call, names the place in the log only, and serves on', async () => {
    const session = await listenInMemory(app);
    for (const opening of era.stdioOpening) {
      session.send(opening);
      if ('id' in opening) await session.answer(opening.id);
    }
    const call = async (name: string) => {
      session.send(era.request({ jsonrpc: '2.0', id: name, method: 'tools/call', params: { name, arguments: {} } }));
      return session.answer(name);
    };
    errors.length = 0;
    for (const [name, place] of [
      ['too_high', /tool 'too_high' returned a malformed result: .*result\.content\[0\]\.annotations\.priority is 2, not a number from 0 to 1/],
      ['negative', /tool 'negative' returned a malformed result: .*result\.content\[1\]\.annotations\.priority is -1, not a number from 0 to 1/],
      ['audience', /tool 'audience' returned a malformed result: .*result\.content\[0\]\.annotations\.audience\[0\] is "robot", not one of 'user', 'assistant'/],
      ['with_schema', /tool 'with_schema' returned a malformed result: .*result\.content\[0\]\.annotations\.priority is 1\.5/],
    ] as const) {
      const answer = await call(name);
      expect(answer.result).toMatchObject({ content: [{ type: 'text', text: `Tool '${name}' failed with an internal error. The server log has the details.` }], isError: true });
      expect((answer.result as { content: unknown[] }).content).toHaveLength(1);
      expect(errors.join('\n')).toMatch(place);
    }
    expect(await call('fine')).toMatchObject({
      result: { content: [{ type: 'text', text: 'fine', annotations: { priority: 0.5, audience: ['user'], lastModified: '2026-01-31T09:30:00Z' } }] },
    });
    await session.close();
  });
});
