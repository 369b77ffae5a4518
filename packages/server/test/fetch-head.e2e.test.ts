import { request } from 'node:http';
import type { App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';

/**
 * A HEAD request has a GET's status and headers, and no body (RFC 9110 §9.3.2). The fetch
 * handler left the body out only for health, metadata and 404 answers: a HEAD at the MCP
 * endpoint got its 405 refusal with the JSON-RPC error as the body, and one the Host rule
 * refused its 403 with one, where the node listener sends none. Both now answer alike.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

/** A HEAD request over real HTTP: its status, Allow header and the bytes that came after the headers. */
function head(url: string, host: string): Promise<{ status: number; allow: string | undefined; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: pathname, method: 'HEAD', headers: { host } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, allow: res.headers.allow, body: text }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('HEAD at the MCP endpoint', () => {
  let app: App;
  let listener: HttpListener;
  let handler: FetchHandler;
  beforeAll(async () => {
    app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    handler = createFetchHandler(app, { logError: () => {} });
  });
  afterAll(async () => {
    await handler.close({ drainTimeoutMs: 100 });
    await listener.close();
  });

  it.each([
    ['a method it does not take: 405 with Allow', 'localhost', 405],
    ['a foreign Host: 403', 'rebound.attacker.example', 403],
  ])('%s, without a body, from the node listener and the fetch handler alike', async (_, host, status) => {
    const { port } = new URL(listener.url);
    const node = await head(listener.url, `${host}:${port}`);
    const web = await handler(new Request(`http://${host}/mcp`, { method: 'HEAD' }));
    const webAnswer = { status: web.status, allow: web.headers.get('allow') ?? undefined, body: await web.text() };

    expect(node.status).toBe(status);
    expect(node.body).toBe('');
    expect(webAnswer).toEqual(node);
  });

  it('a GET of the same refusal keeps its body (only HEAD leaves it out)', async () => {
    const web = await handler(new Request('http://rebound.attacker.example/mcp', { method: 'GET', headers: { accept: 'text/event-stream' } }));
    expect(web.status).toBe(403);
    expect(((await web.json()) as { error: { message: string } }).error.message).toContain('Host header');
  });
});
