import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthInfo } from '@toolwright/core';
import type { App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createHttpHandler, type HttpHandler, type HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * Two `Authorization` headers: RFC 9110 §5.3 lets a field repeat only when its value is a
 * list, and Authorization's is not. The node listener read the first one (node drops the
 * others) and served the request; the fetch handler's `Headers` joins them, which reads as no
 * `Bearer <token>`, and answered 401. Both now answer the same 401 `invalid_request` (the
 * answer to a header that is not one `Bearer <token>`), whichever of the tokens is valid. An
 * Authorization a host set in `req.headers` before the handler (a gateway that authenticated
 * the caller its own way) is the one used, however many lines the client sent.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const verifyToken = async (token: string): Promise<AuthInfo | undefined> => (token === 'good' ? { token, clientId: 'c', scopes: [] } : undefined);
const auth = { verifyToken, resource: 'http://localhost/mcp' };

/** Sends a POST with each of `authorizations` as its own Authorization header line. */
function post(url: string, authorizations: string[]): Promise<{ status: number; challenge: string | undefined; body: string }> {
  const { hostname, port, pathname } = new URL(url);
  const body = JSON.stringify(initializeBody(1, '2025-11-25'));
  const headers: [string, string][] = [
    ['Host', `localhost:${port}`],
    ['Content-Type', 'application/json'],
    ['Accept', ACCEPT_BOTH],
    ['Content-Length', String(Buffer.byteLength(body))],
    ...authorizations.map((value): [string, string] => ['Authorization', value]),
  ];
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: pathname, method: 'POST', headers: headers.flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, challenge: res.headers['www-authenticate'], body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('two Authorization headers', () => {
  let listener: HttpListener;
  let app: App;
  beforeAll(async () => {
    app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, auth });
  });
  afterAll(() => listener.close());

  it('one good token is served (the check itself works)', async () => {
    expect((await post(listener.url, ['Bearer good'])).status).toBe(200);
  });

  it.each([
    ['the good one first', ['Bearer good', 'Bearer bad']],
    ['the good one second', ['Bearer bad', 'Bearer good']],
    ['the same good one twice', ['Bearer good', 'Bearer good']],
  ])('are refused alike by the node listener and the fetch handler (%s)', async (_, authorizations) => {
    const node = await post(listener.url, authorizations);
    const handler = createFetchHandler(app, { auth, logError: () => {} });
    const headers = new Headers({ 'content-type': 'application/json', accept: ACCEPT_BOTH });
    for (const value of authorizations) headers.append('authorization', value);
    const web = await handler(new Request('http://localhost/mcp', { method: 'POST', headers, body: JSON.stringify(initializeBody(1, '2025-11-25')) }));
    const webAnswer = { status: web.status, challenge: web.headers.get('www-authenticate') ?? undefined, body: await web.text() };
    await handler.close({ drainTimeoutMs: 100 });

    expect(node.status).toBe(401);
    expect(JSON.parse(node.body)).toMatchObject({ error: 'invalid_request' });
    expect(node.challenge).toContain('error="invalid_request"');
    expect(node).toEqual(webAnswer);
  });
});

describe('an Authorization a host set before the handler', () => {
  let app: App;
  let handler: HttpHandler;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    app = await createErasApp();
    handler = createHttpHandler(app, { stateless: true, requestLogLevel: 'silent', auth });
    server = createServer((req, res) => {
      // A gateway that authenticated the caller its own way and hands the MCP handler its own token.
      req.headers.authorization = 'Bearer good';
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

  it.each([
    ['one client line', ['Bearer bad']],
    ['two client lines', ['Bearer bad', 'Bearer worse']],
  ])('is the one used (%s)', async (_, authorizations) => {
    expect((await post(url, authorizations)).status).toBe(200);
  });
});
