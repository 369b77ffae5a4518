import { request } from 'node:http';
import type { App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * A request target in absolute form (`POST http://localhost:3000/mcp HTTP/1.1`): RFC 9112
 * §3.2.2 says a server MUST accept it, and takes the host from the target, not from the Host
 * header. The node listener compared the whole target with its endpoint's path and answered
 * 404. It now serves it as the path it names, and applies the Host rule to the target's host.
 * (The fetch handler is given a `Request`, whose URL is always absolute: it reads the path from it.)
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

/** Sends one request with `target` written as it is in the request line. */
function send(port: string, method: string, target: string, host: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host, accept: ACCEPT_BOTH, ...(body !== undefined && { 'content-type': 'application/json' }) };
    const req = request({ host: '127.0.0.1', port, method, path: target, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('an absolute-form request target on the node listener', () => {
  let listener: HttpListener;
  let port: string;
  beforeAll(async () => {
    const app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse: true });
    port = new URL(listener.url).port;
  });
  afterAll(() => listener.close());

  it('is served as the path it names', async () => {
    const answer = await send(port, 'POST', `http://localhost:${port}/mcp`, `localhost:${port}`, JSON.stringify(initializeBody(1, '2025-11-25')));
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
  });

  it('keeps its query apart from the path (health)', async () => {
    const answer = await send(port, 'GET', `HTTP://LOCALHOST:${port}/healthz?probe=1`, `localhost:${port}`);
    expect(answer.status).toBe(200);
  });

  it('takes the host from the target: a foreign one is refused on a loopback connection, whatever the Host header says', async () => {
    const answer = await send(port, 'POST', 'http://attacker.example/mcp', `localhost:${port}`, JSON.stringify(initializeBody(1, '2025-11-25')));
    expect(answer.status).toBe(403);
    expect(answer.text).toContain('Host');
  });

  it('still answers 404 for a path it does not serve', async () => {
    const answer = await send(port, 'GET', `http://localhost:${port}/elsewhere`, `localhost:${port}`);
    expect(answer.status).toBe(404);
  });
});
