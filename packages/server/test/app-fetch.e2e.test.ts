import 'reflect-metadata';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { fetchThrough, serveFetch } from './fixtures/serveFetch';

class Greeter {
  @Tool({ description: 'Greets someone.' })
  greet(@Param('name') name: string) {
    return `hello ${name}`;
  }
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

/**
 * `app.fetch`: the app itself is a web-standard handler (`export default app` on Bun and Deno),
 * serving both eras with the default fetch handler, made on the first request after the start
 * hooks ran.
 */
describe('app.fetch', () => {
  let app: App;
  const started: string[] = [];

  beforeAll(async () => {
    app = await createApp({ name: 'greeter', version: '1.0.0', tools: [Greeter], onStart: () => void started.push('onStart') });
  });

  it('runs the start hooks once, before the first answer', async () => {
    expect(started).toEqual([]);
    const response = await app.fetch(new Request('http://localhost/healthz'));
    expect(response.status).toBe(200);
    await app.fetch(new Request('http://localhost/healthz'));
    expect(started).toEqual(['onStart']);
  });

  it('serves a 2025-11-25 client in a session (SDK v1 client)', async () => {
    const client = new LegacyClient({ name: 'legacy', version: '1' });
    const transport = new LegacyHttp(new URL('http://localhost/mcp'), { fetch: fetchThrough(app.fetch) });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'ada' } }))).toBe('hello ada');
    await transport.terminateSession();
    await client.close();
  });

  it('serves a 2026-07-28 client (SDK v2 client), over a real socket too', async () => {
    const served = await serveFetch((request) => app.fetch(request));
    try {
      const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new ModernHttp(new URL(`${served.url}/mcp`)));
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toEqual(['greet']);
      expect(tools[0].inputSchema).toMatchObject({ properties: { name: { type: 'string' } }, required: ['name'] });
      expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'grace' } }))).toBe('hello grace');
      await client.close();
    } finally {
      await served.close();
    }
  });

  it('keeps the defaults of createFetchHandler(app): a public Host name is refused (403)', async () => {
    const response = await app.fetch(
      new Request('http://mcp.example.com/mcp', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      }),
    );
    expect(response.status).toBe(403);
  });

  it('can be taken off the app (`{ fetch } = app`), as runtimes that call a default export do', async () => {
    const { fetch: serve } = app;
    expect((await serve(new Request('http://localhost/readyz'))).status).toBe(200);
  });

  it('holds the app while it serves: another listener closing does not run the shutdown hooks under it', async () => {
    const events: string[] = [];
    const held = await createApp({ name: 'held', version: '1.0.0', tools: [Greeter], onStart: () => void events.push('start'), onShutdown: () => void events.push('stop') });
    expect((await held.fetch(new Request('http://localhost/healthz'))).status).toBe(200);
    const listener = await held.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    await listener.close();
    expect(events).toEqual(['start']);
    expect((await held.fetch(new Request('http://localhost/healthz'))).status).toBe(200);
    await held.stop();
    expect(events).toEqual(['start', 'stop']);
  });

  it('answers 500, without the reason, when a start hook fails, and starts again on the next request', async () => {
    let tries = 0;
    const failing = await createApp({
      name: 'failing',
      version: '1.0.0',
      tools: [Greeter],
      onStart: () => {
        if (++tries <= 2) throw new Error('database password rejected');
      },
    });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const response = await failing.fetch(new Request('http://localhost/healthz'));
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(text).toContain('failed to start');
      expect(text).not.toContain('password');
      expect((await failing.fetch(new Request('http://localhost/healthz'))).status).toBe(500);
      // Logged once while it keeps failing; the third start succeeds, and the app serves.
      expect(errors).toHaveBeenCalledTimes(1);
      expect(String(errors.mock.calls[0][0])).toContain('database password rejected');
      expect((await failing.fetch(new Request('http://localhost/healthz'))).status).toBe(200);
      expect(tries).toBe(3);
    } finally {
      errors.mockRestore();
    }
  });
});
