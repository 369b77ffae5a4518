import { cache, rateLimit } from '@toolwright/server/middleware';
import { createApp, type App } from '@toolwright/server';
import { ERAS, type Era } from './fixtures/eras';
import { FuzzTools, PROTOTYPE_NAMES } from './fixtures/fuzzTools';
import { HttpMembers } from './fixtures/http.tools';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { listenInMemory } from './fixtures/memoryStdio';
import { HTTP_ENDPOINTS, type HttpEndpoint } from './fixtures/httpEndpoints';

/**
 * Wire names are hostile: every name a client sends (method, tool, prompt, resource URI,
 * argument and completion argument names, session id, header names) is looked up in a Map or
 * with Object.hasOwn. Each `Object.prototype` member name, in each position, must get the
 * answer an unknown name gets there (with the name swapped), on stdio and HTTP, in both eras,
 * through the middleware stores too, and the server keeps serving.
 */
const UNKNOWN = 'zzzUnknown';

/** A position of a name in a message; for an argument name, also the message without that argument. */
type Position = [what: string, message: (name: string) => Record<string, unknown>, without: Record<string, unknown> | undefined];
const POSITIONS: Position[] = [
  ['method', (name) => ({ jsonrpc: '2.0', method: name, params: {} }), undefined],
  ['tool name', (name) => ({ jsonrpc: '2.0', method: 'tools/call', params: { name, arguments: {} } }), undefined],
  [
    'argument name',
    (name) => ({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x', [name]: 1 } } }),
    { jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
  ],
  ['prompt name', (name) => ({ jsonrpc: '2.0', method: 'prompts/get', params: { name } }), undefined],
  [
    'prompt argument name',
    (name) => ({ jsonrpc: '2.0', method: 'prompts/get', params: { name: 'note', arguments: { topic: 't', [name]: 'x' } } }),
    { jsonrpc: '2.0', method: 'prompts/get', params: { name: 'note', arguments: { topic: 't' } } },
  ],
  ['resource URI', (name) => ({ jsonrpc: '2.0', method: 'resources/read', params: { uri: name } }), undefined],
  ['completion argument name', (name) => ({ jsonrpc: '2.0', method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'note' }, argument: { name, value: 'a' } } }), undefined],
  ['completion prompt name', (name) => ({ jsonrpc: '2.0', method: 'completion/complete', params: { ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value: 'a' } } }), undefined],
];

const appOf = (): Promise<App> =>
  createApp({ name: 'wire-names', version: '1.0.0', tools: [FuzzTools, HttpMembers], middleware: [rateLimit({ capacity: 1_000_000, refillPerSecond: 1_000_000 }), cache({ ttlMs: 60_000 })] });

/** An answer without its request id, as text. */
function normalized(answer: unknown): string {
  const { id: _id, ...rest } = (answer ?? {}) as Record<string, unknown>;
  return JSON.stringify(rest);
}

/** The answer an unknown name got, with `name` in its place. */
const swapped = (answer: string, name: string) => answer.split(UNKNOWN).join(JSON.stringify(name).slice(1, -1));

/**
 * What `name` must be answered: as the unknown name. Where the SDK parses the arguments with
 * its schemas (every 2026-07-28 request, and 2025-11-25 prompts/get), that parse drops a
 * `__proto__` member before any handler runs: then the answer is the one without it.
 */
const expectedFor = (name: string, unknown: string, without: string | undefined) => (name === '__proto__' && without !== undefined ? [swapped(unknown, name), without] : [swapped(unknown, name)]);

describe.each(ERAS)('names from the wire ($name)', (era: Era) => {
  let app: App;
  let stderr: jest.SpyInstance;
  beforeAll(async () => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    app = await appOf();
  });
  afterAll(() => stderr.mockRestore());

  describe('stdio', () => {
    let session: Awaited<ReturnType<typeof listenInMemory>>;
    let next = 0;
    beforeAll(async () => {
      session = await listenInMemory(app);
      for (const opening of era.stdioOpening) {
        session.send(opening);
        if ('id' in opening) await session.answer(opening.id);
      }
    });
    afterAll(() => session.close());
    const ask = async (message: Record<string, unknown>) => {
      const id = `q${next++}`;
      session.send(era.request({ ...message, id }));
      return session.answer(id);
    };

    it.each(POSITIONS)('%s: every Object.prototype name is answered as an unknown name', async (_, message, without) => {
      const unknown = normalized(await ask(message(UNKNOWN)));
      const absent = without && normalized(await ask(without));
      for (const name of PROTOTYPE_NAMES) expect(expectedFor(name, unknown, absent)).toContain(normalized(await ask(message(name))));
      expect(await ask({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'alive' } } })).toMatchObject({ result: { content: [{ text: 'echo: alive' }] } });
    });
  });

  describe.each(HTTP_ENDPOINTS)('HTTP %s', (_, open, stateless) => {
    let endpoint: HttpEndpoint;
    let headers: Record<string, string>;
    beforeAll(async () => {
      endpoint = await open(app, stateless);
      headers = stateless || era.modern ? {} : { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': era.version };
    });
    afterAll(() => endpoint.close());
    const ask = async (message: Record<string, unknown>, extra: Record<string, string> = {}) => {
      const request = era.request({ ...message, id: 'q' });
      const response = await post(endpoint.url, request, { ...headers, ...era.headers(request), ...extra });
      return { status: response.status, messages: await messagesOf(response).catch(() => 'not JSON-RPC') };
    };
    const answerText = (answer: { status: number; messages: unknown }) => `${answer.status} ${Array.isArray(answer.messages) ? answer.messages.map(normalized).join(' ') : String(answer.messages)}`;

    it.each(POSITIONS)('%s: every Object.prototype name is answered as an unknown name', async (_, message, without) => {
      const unknown = answerText(await ask(message(UNKNOWN)));
      const absent = without && answerText(await ask(without));
      for (const name of PROTOTYPE_NAMES) expect(expectedFor(name, unknown, absent)).toContain(answerText(await ask(message(name))));
    });

    it('a header named after an Object.prototype member changes nothing', async () => {
      const plain = answerText(await ask({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'h' } } }));
      for (const name of PROTOTYPE_NAMES.filter((n) => /^[a-z_]+$/i.test(n))) {
        expect([name, answerText(await ask({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'echo', arguments: { text: 'h' } } }, { [name]: '1' }))]).toEqual([name, plain]);
      }
    });

    it('a path named after an Object.prototype member is an unknown path', async () => {
      const origin = new URL(endpoint.url).origin;
      const answer = async (path: string, method: string) => {
        const response = await fetch(`${origin}/${path}`, { method, headers: { accept: 'application/json' } });
        return `${response.status} ${await response.text()}`;
      };
      for (const method of ['GET', 'POST']) {
        const unknown = await answer(UNKNOWN, method);
        for (const name of PROTOTYPE_NAMES) expect([method, name, await answer(name, method)]).toEqual([method, name, swapped(unknown, name)]);
      }
    });

    (stateless || era.modern ? it.skip : it)('a session id named after an Object.prototype member is an unknown session', async () => {
      const unknown = answerText(await ask({ jsonrpc: '2.0', method: 'tools/list', params: {} }, { 'mcp-session-id': UNKNOWN }));
      for (const name of PROTOTYPE_NAMES.filter((n) => /^[\x21-\x7e]+$/.test(n))) {
        expect([name, answerText(await ask({ jsonrpc: '2.0', method: 'tools/list', params: {} }, { 'mcp-session-id': name }))]).toEqual([name, swapped(unknown, name)]);
      }
    });
  });
});
