import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { InMemoryEventStore, type HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * A GET whose Last-Event-ID names no event of its session (it expired, or was never sent):
 * the node listener answers 400 with a message that says to send the request again. The
 * fetch handler passed on the SDK's "Invalid event ID format", which names no fix. Both now
 * give the same answer: the same status and the same body.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };
const VERSION = '2025-11-25';

/** Opens a session through `send` (initialize, then initialized); its id. */
async function open(send: (request: Request) => Promise<Response>, url: string): Promise<string> {
  const init = await send(new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeBody(1, VERSION)) }));
  expect(init.status).toBe(200);
  await init.text();
  const id = init.headers.get('mcp-session-id')!;
  const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-session-id': id, 'mcp-protocol-version': VERSION };
  const ack = await send(new Request(url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) }));
  expect(ack.status).toBe(202);
  return id;
}

/** A GET on the session with `lastEventId`: its status and body. */
async function resume(send: (request: Request) => Promise<Response>, url: string, id: string, lastEventId: string): Promise<{ status: number; body: unknown }> {
  const response = await send(new Request(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': VERSION, 'last-event-id': lastEventId } }));
  return { status: response.status, body: JSON.parse(await response.text()) as unknown };
}

describe('a GET whose Last-Event-ID names no event of the session', () => {
  let app: App;
  let listener: HttpListener;
  let handler: FetchHandler;
  beforeAll(async () => {
    app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false, eventStore: () => new InMemoryEventStore() });
    handler = createFetchHandler(app, { eventStore: () => new InMemoryEventStore(), logError: () => {} });
  });
  afterAll(async () => {
    await handler.close({ drainTimeoutMs: 100 });
    await listener.close();
  });

  it.each([
    ['an id never sent', 'no-such-event'],
    ['an id of the store’s own form', '00000000-0000-0000-0000-000000000000_1'],
  ])('gets the same 400 from the node listener and the fetch handler (%s)', async (_, lastEventId) => {
    const node = await resume(fetch, listener.url, await open(fetch, listener.url), lastEventId);
    const web = await resume(handler, 'http://localhost/mcp', await open(handler, 'http://localhost/mcp'), lastEventId);

    expect(node).toEqual({ status: 400, body: { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('Send the request again') } } });
    expect(web).toEqual(node);
  });
});
