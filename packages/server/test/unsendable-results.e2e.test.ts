import 'reflect-metadata';
import { Prompt, Resource, Tool } from '@toolwright/core';
import { createApp, defineExtension, type App } from '@toolwright/server';
import { ERAS, type Era } from './fixtures/eras';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { listenInMemory } from './fixtures/memoryStdio';
import { HTTP_ENDPOINTS } from './fixtures/httpEndpoints';

/**
 * A result JSON cannot carry (a BigInt, a cycle, nesting too deep for JSON.stringify) used to
 * throw inside the transport that serialized it: the request got no answer at all (stdio,
 * 2026-07-28 HTTP) or an empty 200 (2025-11-25 fetch). Each is now answered as a failed call,
 * with the place named in the server's log only, on every transport, and the server serves on.
 */
const DEPTH = 20_000;
const deepText = '{"a":'.repeat(DEPTH) + '1' + '}'.repeat(DEPTH);
const cycle = (): Record<string, unknown> => {
  const o: Record<string, unknown> = { name: 'loop' };
  o.self = o;
  return o;
};

class Account {
  readonly #id = 7;
  get id() {
    return this.#id;
  }
}

class Unsendable {
  @Tool({ description: 'A BigInt in structured content (as a database driver returns a bigint column).' })
  big() {
    return { content: [{ type: 'text', text: 'x' }], structuredContent: { id: 10n } };
  }

  @Tool({ description: 'A cycle in structured content.' })
  looped() {
    return { content: [{ type: 'text', text: 'x' }], structuredContent: cycle() };
  }

  // Arguments this deep are refused before the method runs (MAX_ARGUMENT_DEPTH): the tool makes the value itself.
  @Tool({ description: 'Nests its structured content 20,000 levels deep.' })
  deep() {
    return { content: [{ type: 'text', text: 'x' }], structuredContent: { data: JSON.parse(deepText) as unknown } };
  }

  @Tool({ description: "A BigInt in a content block's _meta." })
  block() {
    return [{ type: 'text', text: 'x', _meta: { n: 1n } }];
  }

  @Tool({ description: 'A plain object with a BigInt, which the server writes as JSON text.' })
  plainBig() {
    return { total: 3n };
  }

  @Tool({ description: 'A plain value with a cycle, checked against an output schema.', outputSchema: { type: 'object' } })
  outputLoop() {
    return cycle();
  }

  @Tool({ description: 'A function, which JSON writes no text for.' })
  aFunction(): unknown {
    return Object;
  }

  @Tool({ description: 'A Map in a plain object, which JSON.stringify writes as {} without a word.' })
  aMap() {
    return { totals: new Map([['a', 1]]) };
  }

  @Tool({ description: 'A Set.' })
  aSet() {
    return new Set([1, 2]);
  }

  @Tool({ description: 'An Error returned where it was meant to be thrown.' })
  anError() {
    return new Error('no rows');
  }

  @Tool({ description: 'A promise not awaited, inside the result.' })
  notAwaited() {
    return { rows: Promise.resolve([1]) };
  }

  @Tool({ description: 'An instance whose only field is private.' })
  privateFields() {
    return { account: new Account() };
  }

  @Tool({ description: 'Empty plain objects and arrays are data: they go out as they are.' })
  emptyPlain() {
    return { filters: {}, tags: [], nested: { none: Object.create(null) as object } };
  }

  @Tool({ description: 'Fine.' })
  fine() {
    return 'fine';
  }

  @Prompt({ description: 'A BigInt in the result _meta.' })
  bigPrompt() {
    return { messages: [{ role: 'user', content: { type: 'text', text: 'x' } }], _meta: { n: 1n } };
  }

  @Resource('test://big', { mimeType: 'text/plain' })
  bigResource() {
    return { contents: [{ uri: 'test://big', text: 'x', _meta: { n: 1n } }] };
  }

  @Resource('test://plain-big')
  plainBigResource() {
    return { rows: [{ id: 1n }] };
  }
}

const looping = defineExtension({
  id: 'com.example/unsendable',
  requests: { 'unsendable/get': { handle: () => ({ loop: cycle() }) } },
});

/** Each request, and what its answer must be. */
const CASES: [string, Record<string, unknown>, string | undefined, 'tool failure' | 'internal error'][] = [
  ['a BigInt in structuredContent', { method: 'tools/call', params: { name: 'big', arguments: {} } }, undefined, 'tool failure'],
  ['a cycle in structuredContent', { method: 'tools/call', params: { name: 'looped', arguments: {} } }, undefined, 'tool failure'],
  ['a result 20,000 levels deep', { method: 'tools/call', params: { name: 'deep', arguments: {} } }, undefined, 'tool failure'],
  ['a BigInt in a content block', { method: 'tools/call', params: { name: 'block', arguments: {} } }, undefined, 'tool failure'],
  ['a BigInt in a plain object', { method: 'tools/call', params: { name: 'plain_big', arguments: {} } }, undefined, 'tool failure'],
  ['a cycle in a value an output schema checks', { method: 'tools/call', params: { name: 'output_loop', arguments: {} } }, undefined, 'tool failure'],
  ['a BigInt in a plain resource value', { method: 'resources/read', params: { uri: 'test://plain-big' } }, undefined, 'internal error'],
  ['a function', { method: 'tools/call', params: { name: 'a_function', arguments: {} } }, undefined, 'tool failure'],
  ['a BigInt in a prompt result', { method: 'prompts/get', params: { name: 'big_prompt' } }, undefined, 'internal error'],
  ['a BigInt in a resource read', { method: 'resources/read', params: { uri: 'test://big' } }, undefined, 'internal error'],
  ['a cycle in an extension result', { method: 'unsendable/get', params: {} }, undefined, 'internal error'],
  ['a Map in a plain object', { method: 'tools/call', params: { name: 'a_map', arguments: {} } }, undefined, 'tool failure'],
  ['a Set', { method: 'tools/call', params: { name: 'a_set', arguments: {} } }, undefined, 'tool failure'],
  ['an Error returned', { method: 'tools/call', params: { name: 'an_error', arguments: {} } }, undefined, 'tool failure'],
  ['a promise not awaited', { method: 'tools/call', params: { name: 'not_awaited', arguments: {} } }, undefined, 'tool failure'],
  ['an instance with private fields only', { method: 'tools/call', params: { name: 'private_fields', arguments: {} } }, undefined, 'tool failure'],
];

/** The request as one line of JSON, with the deep value spliced in where `DEEP` stands (JSON.stringify cannot make it). */
const lineOf = (era: Era, id: string, message: Record<string, unknown>, deep: string | undefined) => {
  const text = JSON.stringify(era.request({ jsonrpc: '2.0', id, ...message }));
  return deep ? text.replace('"DEEP"', deep) : text;
};

function expectAnswered(answer: Record<string, unknown>, expected: 'tool failure' | 'internal error') {
  if (expected === 'tool failure')
    expect(answer.result).toMatchObject({ isError: true, content: [{ type: 'text', text: expect.stringMatching(/failed with an internal error\. The server log has the details\.$/) }] });
  else expect(answer.error).toMatchObject({ code: -32603 });
  // The place and the cause go to the log, not to the client.
  expect(JSON.stringify(answer.result ?? answer.error)).not.toMatch(/BigInt|cycle|UnsendableResult|structuredContent\./);
}

const errors: string[] = [];
const logger = { debug() {}, info() {}, warn() {}, error: (message: string, ...rest: unknown[]) => void errors.push([message, ...rest.map(String)].join(' ')) };
const appOf = (): Promise<App> => createApp({ name: 'unsendable', version: '1.0.0', tools: [Unsendable], extensions: [looping], logger });

describe.each(ERAS)('results JSON cannot carry ($name)', (era) => {
  let app: App;
  beforeAll(async () => {
    app = await appOf();
  });

  it('stdio: each request is answered as failed, the log names the place, and the server serves on', async () => {
    const session = await listenInMemory(app);
    for (const opening of era.stdioOpening) {
      session.send(opening);
      if ('id' in opening) await session.answer(opening.id);
    }
    errors.length = 0;
    for (const [what, message, deep, expected] of CASES) {
      session.sendLine(lineOf(era, what, message, deep));
      expectAnswered(await session.answer(what), expected);
    }
    expect(errors.join('\n')).toMatch(/tool 'big' returned a result that cannot be sent as JSON: .*result\.structuredContent\.id is a BigInt/);
    expect(errors.join('\n')).toMatch(/result\.structuredContent\.self refers back to an object that contains it/);
    expect(errors.join('\n')).toMatch(/result\.structuredContent\.data\.a\.a.*nests deeper than 1000 levels/);
    // A plain value the server writes as JSON text: the place is named too, and it is no throw of the tool's.
    expect(errors.join('\n')).toMatch(/tool 'plain_big' returned a result that cannot be sent as JSON: .*result\.total is a BigInt/);
    expect(errors.join('\n')).toMatch(/tool 'output_loop' returned a result that cannot be sent as JSON: .*result\.self refers back/);
    expect(errors.join('\n')).toMatch(/contents\.rows\[0\]\.id is a BigInt/);
    expect(errors.join('\n')).toMatch(/tool 'a_function' returned a result that cannot be sent as JSON: .*result is a function/);
    // What JSON.stringify would write as {} without a word: named too, with the fix.
    expect(errors.join('\n')).toMatch(/tool 'a_map' returned a result that cannot be sent as JSON: .*result\.totals is a Map, which JSON writes as \{\}: return Object\.fromEntries\(map\)/);
    expect(errors.join('\n')).toMatch(/tool 'a_set' .*result is a Set, which JSON writes as \{\}: return \[\.\.\.set\]/);
    expect(errors.join('\n')).toMatch(/tool 'an_error' .*result is an Error \(Error: no rows\), which JSON writes as \{\}: throw it/);
    expect(errors.join('\n')).toMatch(/tool 'not_awaited' .*result\.rows is a Promise, which JSON writes as \{\}: await it/);
    expect(errors.join('\n')).toMatch(/tool 'private_fields' .*result\.account is an instance of Account with no enumerable fields/);
    expect(errors.join('\n')).not.toMatch(/threw an unexpected error/);
    // One line each: no error object (its stack would be Toolwright's own frames) goes with it.
    expect(errors.join('\n')).not.toMatch(/UnsendableResult:/);
    expect(errors.join('\n')).toMatch(/'unsendable\/get' returned a result that cannot be sent as JSON: result\.loop\.self refers back/);
    session.send(era.request({ jsonrpc: '2.0', id: 'empty', method: 'tools/call', params: { name: 'empty_plain', arguments: {} } }));
    expect(await session.answer('empty')).toMatchObject({ result: { content: [{ text: '{"filters":{},"tags":[],"nested":{"none":{}}}' }] } });
    session.send(era.request({ jsonrpc: '2.0', id: 'alive', method: 'tools/call', params: { name: 'fine', arguments: {} } }));
    expect(await session.answer('alive')).toMatchObject({ result: { content: [{ text: 'fine' }] } });
    await session.close();
  });

  describe.each(HTTP_ENDPOINTS)('HTTP %s', (_, open, stateless) => {
    it('each request is answered as failed, and the server serves on', async () => {
      const endpoint = await open(app, stateless);
      try {
        const session: Record<string, string> = stateless || era.modern ? {} : { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': era.version };
        const ask = async (line: string, message: Record<string, unknown>) => {
          const response = await post(endpoint.url, line, { ...session, ...era.headers(era.request({ jsonrpc: '2.0', id: 'q', ...message })) });
          const messages = await messagesOf(response);
          expect([response.status, messages.length]).toEqual([200, 1]);
          return messages[0];
        };
        for (const [what, message, deep, expected] of CASES) expectAnswered(await ask(lineOf(era, what, message, deep), message), expected);
        const fine = { method: 'tools/call', params: { name: 'fine', arguments: {} } };
        expect(await ask(lineOf(era, 'alive', fine, undefined), fine)).toMatchObject({ result: { content: [{ text: 'fine' }] } });
      } finally {
        await endpoint.close();
      }
    });
  });
});
