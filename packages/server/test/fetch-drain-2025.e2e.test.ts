import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler, type FetchHandlerOptions } from '@toolwright/server/fetch';
import { ACCEPT_BOTH, initializeBody, messagesOf } from './fixtures/httpHelpers';
import { connectInProcess } from './fixtures/connectInProcess';
import { Stoppable, workEvents as events } from './fixtures/stoppable.tools';
import { waitFor } from './fixtures/waitFor';

/**
 * The fetch handler's `close({ drainTimeoutMs })` with 2025-11-25 calls running, in each of its
 * 2025-era modes (stateless or sessions, JSON or SSE answers), driven by the SDK v2 client in
 * process: a call that finishes within the drain gets its result and a new request gets 503; a
 * call still running when the drain timeout passes is answered with a -32000 error naming the
 * timeout (JSON answer, or a last event on its open stream), its run is stopped, and `close()`
 * resolves.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

const clientOf = (handler: FetchHandler) => connectInProcess(handler, '2025-11-25');

/** A raw 2025-11-25 POST to the handler, in session `sessionId` if given. */
function rawPost(handler: FetchHandler, body: unknown, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: ACCEPT_BOTH, 'mcp-protocol-version': '2025-11-25' };
  if (sessionId) headers['mcp-session-id'] = sessionId;
  return handler(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(body) }));
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

const MODES = [
  { name: 'stateless, JSON answers', options: { stateless: true, jsonResponse: true } },
  { name: 'stateless, SSE answers', options: { stateless: true } },
  { name: 'sessions, JSON answers', options: { jsonResponse: true } },
  { name: 'sessions, SSE answers', options: {} },
] as { name: string; options: FetchHandlerOptions }[];

describe.each(MODES)('the fetch handler closing while 2025-11-25 calls run ($name)', ({ options }) => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'slow', version: '1.0.0', tools: [Stoppable], logger: silent });
  });
  let client: Client | undefined;
  beforeEach(() => {
    events.length = 0;
  });
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
  });
  const sse = options.jsonResponse !== true;

  it('a call that finishes within the drain gets its result; a new request gets 503', async () => {
    const handler = createFetchHandler(app, { ...options, logError: () => undefined });
    client = await clientOf(handler);
    const running = client.callTool({ name: 'work', arguments: { ms: 150, progress: false } });
    await waitFor(() => events.includes('work starts'), 'the call to run');
    const closing = handler.close({ drainTimeoutMs: 10_000 });
    await expect(client.callTool({ name: 'work', arguments: { ms: 1, progress: false } })).rejects.toThrow(/503|shutting down/i);
    expect(textOf(await running)).toBe('worked 150 ms');
    await closing;
    // The refused request never ran.
    expect(events).toEqual(['work starts']);
  });

  it.each([false, ...(sse ? [true] : [])])('a call still running at the drain timeout gets a -32000 error naming it, and its run stops (progress sent first: %s)', async (progress) => {
    const handler = createFetchHandler(app, { ...options, logError: () => undefined });
    client = await clientOf(handler);
    const progressed: number[] = [];
    const outcome = client.callTool({ name: 'work', arguments: { ms: 3_000, progress } }, progress ? { onprogress: (p) => void progressed.push(p.progress) } : undefined).then(
      (result) => ({ result }),
      (error: unknown) => ({ error: error as { code?: number; message: string } }),
    );
    await waitFor(() => events.includes('work starts') && (!progress || progressed.length > 0), 'the call to run');
    await handler.close({ drainTimeoutMs: 200 });
    const settled = await Promise.race([outcome, new Promise((resolve) => setTimeout(() => resolve('no answer yet'), 100))]);
    expect(settled).toMatchObject({ error: { code: -32000 } });
    expect((settled as { error: Error }).error.message).toContain('did not finish within the drain timeout (200 ms)');
    await waitFor(() => events.includes('work stopped'), 'the abandoned run to be stopped');
  });

  it('on the wire: the abandoned call is answered with its id, in its JSON body or as the last event of its stream', async () => {
    const handler = createFetchHandler(app, { ...options, logError: () => undefined });
    let sessionId: string | undefined;
    if (!options.stateless) {
      const opened = await rawPost(handler, initializeBody());
      sessionId = opened.headers.get('mcp-session-id')!;
      await opened.text();
      await (await rawPost(handler, { jsonrpc: '2.0', method: 'notifications/initialized' }, sessionId)).text();
    }
    const call = rawPost(handler, { jsonrpc: '2.0', id: 'stuck', method: 'tools/call', params: { name: 'work', arguments: { ms: 3_000, progress: sse }, _meta: { progressToken: 'p' } } }, sessionId);
    await waitFor(() => events.includes('work starts'), 'the call to run');
    // An SSE answer is under way (and with progress, its first event sent) before shutdown begins.
    const response = sse ? await call : undefined;
    await handler.close({ drainTimeoutMs: 200 });
    const answered = response ?? (await call);
    expect(answered.status).toBe(200);
    expect(answered.headers.get('content-type')).toContain(sse ? 'text/event-stream' : 'application/json');
    const messages = await messagesOf(answered);
    if (sse) expect(messages[0]).toMatchObject({ method: 'notifications/progress', params: { progressToken: 'p' } });
    expect(messages.at(-1)).toEqual({ jsonrpc: '2.0', id: 'stuck', error: { code: -32000, message: expect.stringContaining('did not finish within the drain timeout (200 ms)') } });
    await waitFor(() => events.includes('work stopped'), 'the abandoned run to be stopped');
  });
});
