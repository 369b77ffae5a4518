import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

/**
 * A request the endpoint refuses did not use its session, so it does not renew the session's
 * idle time: a 2025-11-25 session that only gets refusals (a wrong MCP-Protocol-Version, a
 * second initialize) expires as if it got nothing, on the node listener and the fetch handler.
 * No clock is read: two sessions, the refused one opened first, and the idle one opened after
 * it must not outlive it.
 */
const VERSION = '2025-11-25';
const IDLE_MS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Send = (method: string, body: unknown, headers?: Record<string, string>) => Promise<Response>;

interface Endpoint {
  send: Send;
  sessionCount(): number;
}

async function open(send: Send): Promise<string> {
  const response = await send('POST', initializeBody(1, VERSION));
  expect(response.status).toBe(200);
  await response.text();
  const id = response.headers.get('mcp-session-id')!;
  const ack = await send('POST', { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': VERSION });
  expect(ack.status).toBe(202);
  await ack.text();
  return id;
}

/** The refusals sent to a session, each with the status it must get. */
const REFUSALS: { what: string; status: number; send: (send: Send, id: string, i: number) => Promise<Response> }[] = [
  {
    what: 'a MCP-Protocol-Version the session did not negotiate',
    status: 400,
    send: (send, id, i) => send('POST', { jsonrpc: '2.0', id: i, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' }),
  },
  {
    what: 'a second initialize on the session',
    status: 400,
    send: (send, id, i) => send('POST', initializeBody(i, VERSION), { 'mcp-session-id': id, 'mcp-protocol-version': VERSION }),
  },
];

async function expectRefusalsKeepNothingAlive(endpoint: Endpoint): Promise<void> {
  const refused = await open(endpoint.send);
  const idle = await open(endpoint.send);
  expect(endpoint.sessionCount()).toBe(2);
  let i = 0;
  await waitFor(async () => {
    const refusal = REFUSALS[i % REFUSALS.length];
    const response = await refusal.send(endpoint.send, refused, ++i);
    await response.text();
    // Once its session is gone, a refusal is a 404 like any request naming it.
    if (response.status !== 404) expect({ what: refusal.what, status: response.status }).toEqual({ what: refusal.what, status: refusal.status });
    if (endpoint.sessionCount() === 2) await sleep(20);
    return endpoint.sessionCount() < 2;
  }, 'a session to expire');
  // The first session to expire is the one that got only refusals: opened before the idle one, it did not outlive it.
  const listed = await endpoint.send('POST', { jsonrpc: '2.0', id: 'last', method: 'tools/list' }, { 'mcp-session-id': refused, 'mcp-protocol-version': VERSION });
  await listed.text();
  expect(listed.status).toBe(404);
  // The idle one expires too (a sweep on a loaded machine may have come between the two expiries).
  await waitFor(() => endpoint.sessionCount() === 0, 'the idle session to expire');
  const other = await endpoint.send('POST', { jsonrpc: '2.0', id: 'last', method: 'tools/list' }, { 'mcp-session-id': idle, 'mcp-protocol-version': VERSION });
  await other.text();
  expect(other.status).toBe(404);
  expect(endpoint.sessionCount()).toBe(0);
}

describe('a refused request does not renew a session idle time', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const handlers: FetchHandler[] = [];

  beforeAll(async () => {
    app = await createApp({ name: 'refusals', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(async () => {
    await Promise.all(listeners.map((l) => l.close()));
    await Promise.all(handlers.map((h) => h.close()));
  });

  it('node listener', async () => {
    const l = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, sessions: { idleTimeoutMs: IDLE_MS, initializeRate: false } });
    listeners.push(l);
    const send: Send = (method, body, headers = {}) =>
      fetch(l.url, { method, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, ...(body !== undefined && { body: JSON.stringify(body) }) });
    await expectRefusalsKeepNothingAlive({ send, sessionCount: () => l.sessionCount });
  });

  it('fetch handler', async () => {
    const handler = createFetchHandler(app, { logError: () => {}, sessions: { idleTimeoutMs: IDLE_MS, initializeRate: false } });
    handlers.push(handler);
    const send: Send = (method, body, headers = {}) =>
      handler(
        new Request('http://localhost/mcp', { method, headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, ...(body !== undefined && { body: JSON.stringify(body) }) }),
      );
    await expectRefusalsKeepNothingAlive({ send, sessionCount: () => handler.sessionCount });
  });
});
