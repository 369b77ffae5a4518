import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, openRawSession } from './fixtures/httpHelpers';
import { serveFetch } from './fixtures/serveFetch';

/**
 * An empty batch (`[]`) is an Invalid Request (JSON-RPC 2.0 §6): HTTP 400 with -32600 from the
 * node listener and the fetch handler alike, in a session and stateless. The fetch handler
 * answered it 202 (the SDK's transport accepts it and answers nothing) where the node listener
 * answered 400.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const EMPTY_BATCH = { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('the batch (JSON array) is empty') } };

describe.each([
  { name: 'with sessions', stateless: false },
  { name: 'stateless', stateless: true },
])('an empty batch, $name', ({ stateless }) => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  /** The endpoint's URL: the node listener's, or a fetch handler's behind a node:http bridge. */
  async function endpoint(kind: 'node listener' | 'fetch handler'): Promise<string> {
    const app = await createErasApp();
    if (kind === 'node listener') {
      const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, stateless });
      stops.push(() => listener.close());
      return listener.url;
    }
    const handler: FetchHandler = createFetchHandler(app, { stateless, logError: () => {} });
    const served = await serveFetch(handler);
    stops.push(async () => {
      await handler.close({ drainTimeoutMs: 100 });
      await served.close();
    });
    return `${served.url.replace('127.0.0.1', 'localhost')}/mcp`;
  }

  it.each(['node listener', 'fetch handler'] as const)('is refused 400 (-32600) by the %s, which keeps serving', async (kind) => {
    const url = await endpoint(kind);
    const session: Record<string, string> = stateless ? {} : { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': '2025-11-25' };
    const post = (body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session }, body });

    const refused = await post('[]');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual(EMPTY_BATCH);

    const served = await post(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'after' } } }));
    expect(served.status).toBe(200);
    expect(await served.text()).toContain('after');
  });
});
