import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools, nextSlowCall } from './fixtures/http.tools';
import { ACCEPT_BOTH, openRawSession } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

/**
 * The request log of a request whose client hung up before any answer went out: it was
 * written at info with status 200 (node's default before a status is set), as if it had been
 * served. It is now written as what happened: status 499 (a client that closed the request,
 * as proxies log it), at warn, with an error saying so.
 */
describe('the request log of a request whose client left before its answer', () => {
  let listener: HttpListener;
  const lines: Record<string, unknown>[] = [];
  let session: Record<string, string>;
  beforeAll(async () => {
    const app = await createApp({ name: 'client-gone', version: '1.0.0', tools: [HttpTools] });
    listener = await app.listen({
      transport: 'http',
      port: 0,
      exitOnSignal: false,
      jsonResponse: true,
      requestLogLevel: 'info',
      logWrite: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>),
    });
    session = { 'mcp-session-id': await openRawSession(listener.url), 'mcp-protocol-version': '2025-11-25' };
  });
  afterAll(() => listener.close());

  const call = (id: number, ms: number, signal?: AbortSignal) =>
    fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...session },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms } } }),
      signal,
    });

  it('says the client closed it, at warn, not 200 at info', async () => {
    const aborted = new AbortController();
    const started = nextSlowCall();
    const pending = call(11, 1000, aborted.signal).catch(() => undefined);
    await started;
    aborted.abort();
    await pending;
    await waitFor(() => lines.some((line) => line.id === 11), 'the log line of the abandoned call');
    expect(lines.find((line) => line.id === 11)).toMatchObject({
      level: 'warn',
      msg: 'http request',
      rpc: 'tools/call',
      status: 499,
      error: expect.stringContaining('the connection closed before any answer was sent'),
    });
  });

  it('logs an answered request as before', async () => {
    await (await call(12, 0)).text();
    await waitFor(() => lines.some((line) => line.id === 12), 'the log line of the answered call');
    const line = lines.find((l) => l.id === 12)!;
    expect(line).toMatchObject({ level: 'info', status: 200 });
    expect(line).not.toHaveProperty('error');
  });
});
