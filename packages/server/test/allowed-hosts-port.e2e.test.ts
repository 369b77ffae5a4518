import { request } from 'node:http';
import { ConfigError } from '@toolwright/core';
import type { App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { ACCEPT_BOTH, initializeBody } from './fixtures/httpHelpers';

/**
 * `allowedHosts` lists host names; the Host rule compares the name of the Host header with its
 * port left out. An entry written with a port (`mcp.example.com:443`) could never match: the
 * server started and answered every request 403, saying nothing. Both servers now refuse such
 * an entry at start with a ConfigError that names the entry to write instead.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const WITH_PORT = /allowedHosts entry "mcp\.example\.com:443" is not a host name without a port.*Write "mcp\.example\.com"/;

describe('allowedHosts entries with a port', () => {
  const stops: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const stop of stops) await stop();
  });

  it('the node listener refuses to start, naming the entry to write', async () => {
    const app = await createErasApp();
    const started = app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, allowedHosts: ['mcp.example.com:443'] });
    // Were it to start, it would need closing.
    started.then((listener) => stops.push(() => listener.close())).catch(() => {});
    await expect(started).rejects.toThrow(ConfigError);
    await expect(started).rejects.toThrow(WITH_PORT);
  });

  it('the fetch handler refuses to be made, naming the entry to write', async () => {
    const app = await createErasApp();
    expect(() => createFetchHandler(app, { allowedHosts: ['mcp.example.com:443'], logError: () => {} })).toThrow(WITH_PORT);
  });

  it.each([[['[::1]:8080']], [['::1']], [['']]])('refuses %j too', async (allowedHosts) => {
    const app = await createErasApp();
    expect(() => createFetchHandler(app, { allowedHosts, logError: () => {} })).toThrow(/allowedHosts entry .* is not a host name without a port/);
  });

  it('a bare name serves its requests on any port, on both servers', async () => {
    const app = await createErasApp();
    const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, allowedHosts: ['MCP.example.com', '[::1]'] });
    stops.push(() => listener.close());
    const { port } = new URL(listener.url);
    const status = await new Promise<number>((resolve, reject) => {
      const body = JSON.stringify(initializeBody(1, '2025-11-25'));
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'mcp.example.com:443', 'content-type': 'application/json', accept: ACCEPT_BOTH } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(status).toBe(200);

    const handler = createFetchHandler(await createErasApp(), { allowedHosts: ['mcp.example.com'], logError: () => {} });
    stops.push(() => handler.close({ drainTimeoutMs: 100 }));
    const response = await handler(
      new Request('https://mcp.example.com:8443/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body: JSON.stringify(initializeBody(1, '2025-11-25')) }),
    );
    await response.text();
    expect(response.status).toBe(200);
  });
});
