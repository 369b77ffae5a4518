import 'reflect-metadata';
import { Prompt } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { ERAS } from './fixtures/eras';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * A prompt's messages carry content blocks, whose annotations MCP gives the same ranges as a
 * tool's: `priority` from 0 to 1, `audience` of 'user' and 'assistant', `lastModified` an ISO 8601
 * date-time. A `prompts/get` result whose blocks stray from them is answered -32603 Internal error,
 * the log names the place, and the server serves on. Blocks without annotations are not looked at.
 */
class Annotated {
  @Prompt({ description: 'One block of priority 2.' })
  tooHigh() {
    return { type: 'text', text: 'x', annotations: { priority: 2 } };
  }

  @Prompt({ description: 'A second message whose block has priority -1.' })
  negative() {
    return [
      { role: 'user', content: { type: 'text', text: 'fine' } },
      { role: 'assistant', content: { type: 'text', text: 'x', annotations: { priority: -1 } } },
    ];
  }

  @Prompt({ description: 'A complete result whose block is for an audience MCP does not name.' })
  audience() {
    return { description: 'd', messages: [{ role: 'user', content: { type: 'text', text: 'x', annotations: { audience: ['robot'] } } }] };
  }

  @Prompt({ description: 'A block modified at a time that is no date-time.' })
  modified() {
    return { role: 'user', content: { type: 'text', text: 'x', annotations: { lastModified: 'yesterday' } } };
  }

  @Prompt({ description: 'Annotations within range.' })
  fine() {
    return { type: 'text', text: 'fine', annotations: { priority: 0.5, audience: ['user'], lastModified: '2026-01-31T09:30:00Z' } };
  }
}

const errors: string[] = [];
const logger = { debug() {}, info() {}, warn() {}, error: (message: string, ...rest: unknown[]) => void errors.push([message, ...rest.map(String)].join(' ')) };

describe.each(ERAS)("prompt messages' content annotations out of range ($name)", (era) => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'annotated-prompts', version: '1.0.0', tools: [Annotated], logger });
  });

  it('answers each such result -32603, names the place in the log only, and serves on', async () => {
    const session = await listenInMemory(app);
    for (const opening of era.stdioOpening) {
      session.send(opening);
      if ('id' in opening) await session.answer(opening.id);
    }
    const get = async (name: string) => {
      session.send(era.request({ jsonrpc: '2.0', id: name, method: 'prompts/get', params: { name, arguments: {} } }));
      return session.answer(name);
    };
    errors.length = 0;
    for (const [name, place] of [
      ['too_high', /prompt 'too_high' returned a malformed result: .*result\.messages\[0\]\.content\.annotations\.priority is 2, not a number from 0 to 1/],
      ['negative', /prompt 'negative' returned a malformed result: .*result\.messages\[1\]\.content\.annotations\.priority is -1, not a number from 0 to 1/],
      ['audience', /prompt 'audience' returned a malformed result: .*result\.messages\[0\]\.content\.annotations\.audience\[0\] is "robot", not one of 'user', 'assistant'/],
      ['modified', /prompt 'modified' returned a malformed result: .*result\.messages\[0\]\.content\.annotations\.lastModified/],
    ] as const) {
      const answer = await get(name);
      expect(answer).toMatchObject({ error: { code: -32603, message: expect.stringContaining(`The prompt '${name}' failed with an internal error.`) } });
      expect(JSON.stringify(answer)).not.toContain('annotations');
      expect(errors.join('\n')).toMatch(place);
    }
    expect(await get('fine')).toMatchObject({
      result: { messages: [{ role: 'user', content: { type: 'text', text: 'fine', annotations: { priority: 0.5, audience: ['user'], lastModified: '2026-01-31T09:30:00Z' } } }] },
    });
    await session.close();
  });
});
