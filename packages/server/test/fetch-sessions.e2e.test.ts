import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { InMemoryEventStore } from '@toolwright/server/http';
import { tokenTable } from './fixtures/authTokens';
import { ACCEPT_BOTH, initializeBody, messagesOf } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

/**
 * 2025-11-25 sessions on the fetch handler, with the node listener's rules: a session is bound
 * to the principal that opened it, each owner has its own share, the total only refuses new
 * sessions, `initialize` is rate-limited per owner, idle sessions expire, DELETE ends one.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };
const URL_ = 'http://localhost/mcp';
const VERSION = '2025-11-25';
const handlers: FetchHandler[] = [];
afterAll(() => Promise.all(handlers.map((h) => h.close())));

async function handlerFor(options: FetchHandlerOptions): Promise<FetchHandler> {
  const handler = createFetchHandler(await createErasApp(), { logError: () => {}, ...options });
  handlers.push(handler);
  return handler;
}

function send(handler: FetchHandler, method: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  const init: RequestInit = { method, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers } };
  if (body !== undefined) init.body = JSON.stringify(body);
  return handler(new Request(URL_, init));
}

/** initialize + initialized; the session id. */
async function open(handler: FetchHandler, headers: Record<string, string> = {}): Promise<string> {
  const response = await send(handler, 'POST', initializeBody(1, VERSION), headers);
  expect(response.status).toBe(200);
  await response.body?.cancel();
  const id = response.headers.get('mcp-session-id')!;
  expect(id).toMatch(/^[0-9a-f-]{36}$/);
  const initialized = await send(handler, 'POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': VERSION });
  expect(initialized.status).toBe(202);
  return id;
}

/** tools/list on a session: its status (and the tool names when 200). */
async function listOn(handler: FetchHandler, id: string, headers: Record<string, string> = {}): Promise<{ status: number; tools?: string[] }> {
  const response = await send(handler, 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': VERSION });
  if (response.status !== 200) return { status: response.status };
  const [message] = await messagesOf(response);
  return { status: 200, tools: (message.result as { tools: { name: string }[] }).tools.map((t) => t.name) };
}

describe('fetch handler sessions', () => {
  it('binds a session to the principal that opened it: another token gets 404, as for an unknown session', async () => {
    const resource = 'http://localhost/mcp';
    const handler = await handlerFor({ auth: { verifyToken: tokenTable(() => resource), resource, authorizationServers: ['https://auth.example.com'] } });
    const alice = { authorization: 'Bearer reader' };
    const id = await open(handler, alice);
    expect((await listOn(handler, id, alice)).status).toBe(200);
    const stolen = await send(handler, 'POST', { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { authorization: 'Bearer writer', 'mcp-session-id': id, 'mcp-protocol-version': VERSION });
    expect(stolen.status).toBe(404);
    expect(await stolen.json()).toMatchObject({ error: { code: -32001 } });
    expect((await listOn(handler, id, alice)).status).toBe(200);
  });

  it('refuses requests without a session id, with an unknown one, and with a version other than the negotiated one', async () => {
    const handler = await handlerFor({});
    expect((await send(handler, 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(400);
    expect((await listOn(handler, '00000000-0000-0000-0000-000000000000')).status).toBe(404);
    const id = await open(handler);
    const mismatch = await send(handler, 'POST', { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' });
    expect(mismatch.status).toBe(400);
  });

  it("gives each anonymous client address its own share: one more session closes that caller's oldest, never another's", async () => {
    const handler = await handlerFor({ sessions: { maxSessionsPerPrincipal: 2, initializeRate: false, clientAddressOf: (request) => request.headers.get('x-client') ?? undefined } });
    const a = { 'x-client': '10.0.0.1' };
    const b = { 'x-client': '10.0.0.2' };
    const b1 = await open(handler, b);
    const a1 = await open(handler, a);
    const a2 = await open(handler, a);
    const a3 = await open(handler, a);
    expect((await listOn(handler, a1, a)).status).toBe(404);
    expect((await listOn(handler, a2, a)).status).toBe(200);
    expect((await listOn(handler, a3, a)).status).toBe(200);
    expect((await listOn(handler, b1, b)).status).toBe(200);
    expect(handler.sessionCount).toBe(3);
  });

  it('hands clientAddressOf the very request the runtime passed (Deno and Bun give the address beside it)', async () => {
    const addresses = new WeakMap<Request, string>();
    const handler = await handlerFor({ sessions: { maxSessionsPerPrincipal: 1, initializeRate: false, clientAddressOf: (request) => addresses.get(request) } });
    /** initialize from `address`; the session id, once the answer is read. */
    const from = async (address: string) => {
      const request = new Request(URL_, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeBody(1, VERSION)) });
      addresses.set(request, address);
      const response = await handler(request);
      await response.text();
      return response.headers.get('mcp-session-id')!;
    };
    const first = await from('10.0.0.1');
    await from('10.0.0.2');
    // Two owners, one session each: neither closed the other's.
    expect(handler.sessionCount).toBe(2);
    expect((await listOn(handler, first)).status).toBe(200);
  });

  it('refuses a new session with 503 and Retry-After once maxSessions are open, closing none', async () => {
    const handler = await handlerFor({ sessions: { maxSessions: 2, initializeRate: false, clientAddressOf: (request) => request.headers.get('x-client') ?? undefined } });
    const first = await open(handler, { 'x-client': 'one' });
    await open(handler, { 'x-client': 'two' });
    const refused = await send(handler, 'POST', initializeBody(1, VERSION), { 'x-client': 'three' });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('sessions.maxSessions');
    expect((await listOn(handler, first, { 'x-client': 'one' })).status).toBe(200);
  });

  it('limits how fast one caller sends initialize (429 with Retry-After)', async () => {
    const handler = await handlerFor({ sessions: { initializeRate: { burst: 2, perMinute: 1 } } });
    await open(handler);
    await open(handler);
    const refused = await send(handler, 'POST', initializeBody('third', VERSION));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({ id: 'third', error: { code: -32000, message: expect.stringContaining('initializeRate') } });
  });

  it('ends a session on DELETE and expires idle ones', async () => {
    const handler = await handlerFor({ sessions: { idleTimeoutMs: 200, initializeRate: false } });
    const id = await open(handler);
    const ended = await send(handler, 'DELETE', undefined, { 'mcp-session-id': id, 'mcp-protocol-version': VERSION });
    expect(ended.status).toBe(200);
    expect((await listOn(handler, id)).status).toBe(404);
    expect(handler.sessionCount).toBe(0);
    const idle = await open(handler);
    expect(handler.sessionCount).toBe(1);
    await waitFor(() => handler.sessionCount === 0, 'the idle session to expire');
    expect((await listOn(handler, idle)).status).toBe(404);
  });

  it("resumes a call's SSE stream with Last-Event-ID from the session's event store", async () => {
    const handler = await handlerFor({ eventStore: () => new InMemoryEventStore(), sessions: { initializeRate: false } });
    const id = await open(handler);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
    const call = await send(handler, 'POST', { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { name: 'work', arguments: { steps: 2 }, _meta: { progressToken: 'p' } } }, headers);
    const text = await call.text();
    const ids = [...text.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    // Each event carries an id: progress and log notifications, then the result.
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const resumed = await handler(new Request(URL_, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': ids[0] } }));
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    let replayed = '';
    // The replay holds every event after the first, the result last.
    while (!replayed.includes('"id":5')) replayed += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    expect([...replayed.matchAll(/^id: (.+)$/gm)].map((m) => m[1])).toEqual(ids.slice(1));
  });

  it('close() lets a running call answer before it ends the sessions, and refuses new requests meanwhile', async () => {
    const handler = await handlerFor({ sessions: { initializeRate: false } });
    const id = await open(handler);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
    const running = await send(handler, 'POST', { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'wait', arguments: { ms: 300 } } }, headers);
    const closed = handler.close();
    expect(handler.closing).toBe(true);
    expect((await send(handler, 'POST', { jsonrpc: '2.0', id: 8, method: 'tools/list' }, headers)).status).toBe(503);
    const [answer] = (await messagesOf(running)).filter((m) => m.id === 7);
    expect(answer).toMatchObject({ result: { content: [{ type: 'text', text: 'waited' }] } });
    await closed;
    expect(handler.sessionCount).toBe(0);
  });

  it('keeps a session with an open SSE stream from expiring while the stream lasts', async () => {
    const handler = await handlerFor({ sessions: { idleTimeoutMs: 100, initializeRate: false } });
    const id = await open(handler);
    const stream = await handler(new Request(URL_, { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': VERSION } }));
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.getReader();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(handler.sessionCount).toBe(1);
    await reader.cancel();
    await waitFor(() => handler.sessionCount === 0, 'the session to expire once its stream ended');
  });
});
