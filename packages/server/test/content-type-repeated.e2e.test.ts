import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createHttpHandler, type HttpHandler, type HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * Two `Content-Type` headers: the field may not repeat (RFC 9110 §5.3, §8.3). The node
 * listener read the first one (node drops the others) and served the request; the fetch
 * handler's `Headers` joins them, which names no single media type, and answered 415. Both now
 * read the joined value, and answer alike: the same status and the same body. A joined value is
 * not application/json even when its first part is (`application/json;v=1, text/plain`): a `,`
 * outside a quoted string ends the one media type the field may hold. A Content-Type a host set
 * in `req.headers` before the handler is the one read, as the OAuth adapter reads it.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const BODY = JSON.stringify(initializeBody(1, '2025-11-25'));

/** Sends an initialize POST with each of `contentTypes` as its own Content-Type header line. */
function post(url: string, contentTypes: string[]): Promise<{ status: number; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  const headers: [string, string][] = [
    ['Host', `localhost:${port}`],
    ['Accept', ACCEPT_BOTH],
    ['Content-Length', String(Buffer.byteLength(BODY))],
    ...contentTypes.map((value): [string, string] => ['Content-Type', value]),
  ];
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: pathname, method: 'POST', headers: headers.flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(BODY);
  });
}

describe('two Content-Type headers', () => {
  let listener: HttpListener;
  let app: App;
  beforeAll(async () => {
    app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, stateless: true });
  });
  afterAll(() => listener.close());

  it('one application/json is served (the check itself works)', async () => {
    expect((await post(listener.url, ['application/json'])).status).toBe(200);
  });

  it('a comma inside a quoted parameter value is still one media type, and served', async () => {
    expect((await post(listener.url, ['application/json; profile="a,b"'])).status).toBe(200);
  });

  it.each([
    ['the same one twice', ['application/json', 'application/json'], 'Content-Type: application/json'],
    ['application/json first, another type second', ['application/json', 'text/plain'], 'Content-Type: application/json'],
    ['a UTF-8 one first, another type second', ['application/json; charset=utf-8', 'text/plain'], 'Content-Type: application/json'],
    ['one with a parameter first, another type second', ['application/json;v=1', 'text/plain'], 'Content-Type: application/json'],
    ['one with an empty parameter list first, another type second', ['application/json;', 'text/html'], 'Content-Type: application/json'],
    ['one with an unclosed quoted parameter first', ['application/json; v="1', 'text/plain'], 'Content-Type: application/json'],
  ])('are refused alike by the node listener and the fetch handler (%s)', async (_, contentTypes, named) => {
    const node = await post(listener.url, contentTypes);
    const handler = createFetchHandler(app, { stateless: true, logError: () => {} });
    const headers = new Headers({ accept: ACCEPT_BOTH });
    for (const value of contentTypes) headers.append('content-type', value);
    const web = await handler(new Request('http://localhost/mcp', { method: 'POST', headers, body: BODY }));
    const webAnswer = { status: web.status, body: await web.text() };
    await handler.close({ drainTimeoutMs: 100 });

    expect(node.status).toBe(415);
    expect((JSON.parse(node.body) as { error: { message: string } }).error.message).toContain(named);
    expect(node).toEqual(webAnswer);
  });
});

describe('a Content-Type a host set before the handler', () => {
  let app: App;
  let handler: HttpHandler;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    app = await createErasApp();
    handler = createHttpHandler(app, { stateless: true, requestLogLevel: 'silent' });
    server = createServer((req, res) => {
      // A host (gateway, middleware) that settles the media type itself before the MCP handler.
      req.headers['content-type'] = 'application/json';
      void handler(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await handler.close({ drainTimeoutMs: 100 });
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is the one read, not the lines the client sent', async () => {
    expect((await post(url, ['text/plain', 'text/html'])).status).toBe(200);
  });
});
