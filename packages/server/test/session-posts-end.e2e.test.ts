import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { HTTP_ENDPOINTS, type OpenEndpoint } from './fixtures/httpEndpoints';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { serveFetch } from './fixtures/serveFetch';

/**
 * No POST of a session waits for ever:
 * - A client that sends a request with the id of one of its requests still running breaks the
 *   spec's rule that ids are unique in a session. Answers are routed by id, so the second
 *   request could never be answered: the SDK's transports left its POST waiting for ever. A
 *   session now refuses that POST at once (HTTP 400, -32600), the first request is answered as
 *   usual, and the id is free again once answered or cancelled. Over stdio both requests are
 *   answered (stdio-hostile.e2e.test.ts), and a stateless endpoint answers each POST apart.
 * - The SDK sends no answer for a request the client cancelled, and its web-standard transport
 *   (the fetch handler's sessions) then held that POST open until the client hung up. It ends
 *   now, as on the node listener: its SSE stream closes, a JSON response is 202. Nothing of the
 *   request stays behind: in JSON mode the SDK's wait for its answer kept the request for as
 *   long as the session lived.
 * - A session closed (DELETE) while a request runs ends that request's POST: its SSE stream, or
 *   a JSON response 404 (the fetch handler's waited for ever).
 */
let release!: () => void;
let gate = Promise.resolve();
let started!: () => void;
let running = Promise.resolve();
const closeGate = () => {
  gate = new Promise((resolve) => (release = resolve));
  running = new Promise((resolve) => (started = resolve));
};

class Gated {
  @Tool({ description: 'Answers once the test opens the gate.' })
  async gated() {
    started();
    await gate;
    return 'through';
  }

  @Tool({ description: 'Answers at once.' })
  fine() {
    return 'fine';
  }
}

const call = (id: number | string, name: string) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const textOf = (message: Record<string, unknown>) => (message.result as { content: { text: string }[] }).content[0].text;

describe.each(HTTP_ENDPOINTS)('a request id reused while its request runs, HTTP %s', (_, open, stateless) => {
  let app: App;
  let endpoint: Awaited<ReturnType<typeof open>>;
  let headers: Record<string, string>;
  beforeAll(async () => {
    app = await createApp({ name: 'reused-ids', version: '1.0.0', tools: [Gated] });
    endpoint = await open(app, stateless);
    headers = stateless ? { 'mcp-protocol-version': '2025-11-25' } : { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': '2025-11-25' };
  });
  afterAll(() => endpoint.close());

  if (stateless) {
    it('is answered on its own POST, as each stateless POST is its own exchange', async () => {
      closeGate();
      const first = post(endpoint.url, call(7, 'gated'), headers);
      await running;
      const second = post(endpoint.url, call(7, 'gated'), headers);
      release();
      for (const response of await Promise.all([first, second])) {
        expect(response.status).toBe(200);
        expect((await messagesOf(response)).map(textOf)).toEqual(['through']);
      }
    });
    return;
  }

  it('is refused at once with -32600, the running request is answered, and the id is free again after', async () => {
    closeGate();
    const first = post(endpoint.url, call(7, 'gated'), headers);
    await running;
    const second = await post(endpoint.url, call(7, 'fine'), headers);
    expect(second.status).toBe(400);
    expect(await second.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('request id 7 is already used by a request of this session') } });
    // Another id is served meanwhile, and "7" (a string) is not 7.
    for (const id of [8, '7']) expect((await messagesOf(await post(endpoint.url, call(id, 'fine'), headers))).map(textOf)).toEqual(['fine']);

    release();
    expect((await messagesOf(await first)).map((m) => [m.id, textOf(m)])).toEqual([[7, 'through']]);
    expect((await messagesOf(await post(endpoint.url, call(7, 'fine'), headers))).map(textOf)).toEqual(['fine']);
  });

  it('is free again once the client cancels the request that held it, whose POST ends without an answer', async () => {
    await cancelThenReuse(endpoint.url, headers);
  });

  it('a session closed while its request runs ends that POST', async () => {
    const ended = await deleteWhileRunning(endpoint.url);
    expect(ended.status).toBe(200);
    expect(await messagesOf(ended)).toEqual([]);
  });
});

/** Opens a session of its own, starts a request, DELETEs the session while it runs; returns the request's response. */
async function deleteWhileRunning(url: string): Promise<Response> {
  const own = { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': '2025-11-25' };
  closeGate();
  const first = post(url, call('d', 'gated'), own);
  await running;
  expect((await fetch(url, { method: 'DELETE', headers: own })).status).toBe(200);
  const response = await first;
  release();
  return response;
}

/** Cancels a running request: its POST ends with no answer (202 for a JSON response), and its id serves a new request. */
async function cancelThenReuse(url: string, headers: Record<string, string>, json = false) {
  closeGate();
  const first = post(url, call('c', 'gated'), headers);
  await running;
  const cancel = await post(url, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'c' } }, headers);
  expect(cancel.status).toBe(202);
  const ended = await first;
  expect(ended.status).toBe(json ? 202 : 200);
  expect(await ended.text()).not.toContain('"result"');
  expect((await messagesOf(await post(url, call('c', 'fine'), headers))).map(textOf)).toEqual(['fine']);
  release();
}

const JSON_ENDPOINTS: [string, OpenEndpoint][] = [
  ['node listener', (app) => app.listen({ transport: 'http', port: 0, jsonResponse: true, requestLogLevel: 'silent', exitOnSignal: false })],
  [
    'fetch handler',
    async (app) => {
      const handler = createFetchHandler(app, { jsonResponse: true, logError: () => {} });
      const served = await serveFetch(handler);
      return { url: `${served.url}/mcp`, close: () => handler.close().then(() => served.close()) };
    },
  ],
];

describe.each(JSON_ENDPOINTS)('JSON responses, HTTP %s, stateful', (_, open) => {
  let app: App;
  let endpoint: Awaited<ReturnType<typeof open>>;
  let headers: Record<string, string>;
  beforeAll(async () => {
    app = await createApp({ name: 'reused-ids', version: '1.0.0', tools: [Gated] });
    endpoint = await open(app, false);
    headers = { 'mcp-session-id': await openRawSession(endpoint.url), 'mcp-protocol-version': '2025-11-25' };
  });
  afterAll(() => endpoint.close());

  it('refuses a POST reusing a running request id, and answers the running one', async () => {
    closeGate();
    const first = post(endpoint.url, call(9, 'gated'), headers);
    await running;
    expect((await post(endpoint.url, call(9, 'fine'), headers)).status).toBe(400);
    release();
    expect(await (await first).json()).toMatchObject({ id: 9, result: { content: [{ text: 'through' }] } });
  });

  it('ends a cancelled request with 202, and its id serves a new request', async () => {
    await cancelThenReuse(endpoint.url, headers, true);
  });

  it('answers a request of a session closed while it runs with 404 -32001', async () => {
    const ended = await deleteWhileRunning(endpoint.url);
    expect(ended.status).toBe(404);
    expect(await ended.json()).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32001, message: expect.stringContaining('closed before this request was answered') } });
  });
});

describe('a cancelled request of a fetch handler session', () => {
  setFlagsFromString('--expose-gc');
  const collectGarbage = runInNewContext('gc') as () => void;
  const request = (body: unknown, headers: Record<string, string> = {}) =>
    new Request('http://localhost/mcp', {
      method: 'POST',
      headers: { host: 'localhost', 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  it.each([
    ['JSON responses', true],
    ['SSE', false],
  ])('is not held once its POST has ended (%s)', async (_, jsonResponse) => {
    const app = await createApp({ name: 'cancelled', version: '1.0.0', tools: [Gated] });
    const handler = createFetchHandler(app, { jsonResponse, logError: () => {} });
    const opened = await handler(request({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }));
    await opened.text();
    const headers = { 'mcp-session-id': opened.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await (await handler(request({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers))).text();

    // A function of its own, so that no frame of the test holds the request.
    const cancel = async (id: string): Promise<WeakRef<Request>> => {
      closeGate();
      const sent = request(call(id, 'gated'), headers);
      const ended = handler(sent);
      await running;
      await (await handler(request({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id } }, headers))).text();
      await (await ended).text();
      release();
      return new WeakRef(sent);
    };
    const cancelled = [await cancel('a'), await cancel('b'), await cancel('c')];
    for (let round = 0; round < 3; round++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      collectGarbage();
    }
    expect(cancelled.map((ref) => ref.deref() === undefined)).toEqual([true, true, true]);
    // The session serves on.
    expect((await messagesOf(await handler(request(call('d', 'fine'), headers)))).map(textOf)).toEqual(['fine']);
    await handler.close();
  });
});
