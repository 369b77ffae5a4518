/** The route handlers called as Next calls them, with web `Request`s: the endpoint's path as the route file places it. */
import 'reflect-metadata';
import { NextRequest } from 'next/server';
import { Service } from 'typedi';
import { Param, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createRouteHandlers } from '@toolwright/next';

@Service()
class EchoTools {
  @Tool({ description: 'Echo the text.' })
  echo(@Param('text') text: string): string {
    return text;
  }
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } });
const post = (url: string, headers: Record<string, string> = {}) =>
  new Request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: initialize });

describe('createRouteHandlers', () => {
  it("serves a session to Next's own NextRequest: initialize, a tool call, the session's end; a body read before is a 500", async () => {
    const route = createRouteHandlers(createApp({ name: 'next-request', version: '1.0.0', tools: [EchoTools] }), { logError: () => undefined });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost' };
    const nextRequest = (method: string, extra: Record<string, string> = {}, body?: unknown) =>
      new NextRequest('http://localhost/mcp', { method, headers: { ...headers, ...extra }, body: body === undefined ? undefined : JSON.stringify(body) });
    try {
      const opened = await route.POST(nextRequest('POST', {}, JSON.parse(initialize)));
      expect([opened.status, await opened.text()]).toEqual([200, expect.stringContaining('"serverInfo":{"name":"next-request"')]);
      const session = opened.headers.get('mcp-session-id')!;
      expect(session).toEqual(expect.any(String));
      const sessionHeaders = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      expect((await route.POST(nextRequest('POST', sessionHeaders, { jsonrpc: '2.0', method: 'notifications/initialized' }))).status).toBe(202);
      const called = await route.POST(nextRequest('POST', sessionHeaders, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'from Next' } } }));
      expect([called.status, await called.text()]).toEqual([200, expect.stringContaining('"text":"from Next"')]);
      expect(route.sessionCount).toBe(1);
      expect((await route.DELETE(nextRequest('DELETE', sessionHeaders))).status).toBe(200);
      expect(route.sessionCount).toBe(0);
      const read = nextRequest('POST', {}, JSON.parse(initialize));
      await read.json();
      expect((await route.POST(read)).status).toBe(500);
    } finally {
      await route.close();
    }
  });

  it.each(['/outils métier/mcp', '/api/mcp v2', 'mcp'])('serves a route whose path %j is written as the folders name it', async (path) => {
    const route = createRouteHandlers(await createApp({ name: 'odd-path', version: '1.0.0', tools: [EchoTools] }), { path, logError: () => undefined });
    try {
      await route.ready;
      const url = new URL(path, 'http://localhost');
      const answer = await route.POST(post(url.href));
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('"serverInfo":{"name":"odd-path"');
      expect((await route.POST(post('http://localhost/elsewhere'))).status).toBe(404);
    } finally {
      await route.close();
    }
  });

  it.each([{}, { stateless: true }])("PUT, PATCH and OPTIONS without cors answer the fetch handler's 405 with Allow (%j); with cors OPTIONS is its preflight", async (mode) => {
    const app = () => createApp({ name: 'methods', version: '1.0.0', tools: [EchoTools] });
    const route = createRouteHandlers(app(), { ...mode, logError: () => undefined });
    const handler = createFetchHandler(await app(), { ...mode, logError: () => undefined });
    const withCors = createRouteHandlers(app(), { cors: { origins: ['https://app.example'] }, logError: () => undefined });
    const answerOf = async (response: Response) => [response.status, response.headers.get('allow'), response.headers.get('content-type'), await response.text()];
    try {
      for (const method of ['PUT', 'PATCH', 'OPTIONS'] as const) {
        const request = () => new Request('http://localhost/mcp', { method });
        const expected = await answerOf(await handler(request()));
        expect(expected.slice(0, 2)).toEqual([405, mode.stateless ? 'POST' : 'GET, POST, DELETE']);
        expect(await answerOf(await route[method](request()))).toEqual(expected);
      }
      const preflight = await withCors.OPTIONS(new Request('http://localhost/mcp', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } }));
      expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, 'https://app.example']);
    } finally {
      await Promise.all([route.close(), handler.close(), withCors.close()]);
    }
  });

  it("without logError: its lines and the fetch handler's go to the app's logger, not the console", async () => {
    const lines: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void lines.push(m), error: (m: string) => void lines.push(m) };
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const route = createRouteHandlers(createApp({ name: 'logged', version: '1.0.0', tools: [EchoTools], logger }));
    try {
      await route.ready;
      expect((await route.POST(post('http://localhost/elsewhere'))).status).toBe(404);
      const read = post('http://localhost/mcp');
      await read.text();
      expect((await route.POST(read)).status).toBe(500);
      expect(lines).toEqual([
        expect.stringMatching(/^toolwright next: a route handler for \/mcp was called at \/elsewhere/),
        expect.stringMatching(/^toolwright (next|fetch): the body of POST \/mcp was read before/),
      ]);
      const failing = createRouteHandlers(
        createApp({
          name: 'failing',
          version: '1.0.0',
          tools: [EchoTools],
          logger,
          onStart: () => {
            throw new Error('the database is down');
          },
        }),
      );
      await expect(failing.ready).rejects.toThrow('the database is down');
      expect(lines[2]).toMatch(/^toolwright next: the MCP server did not start: .*the database is down/);
      await failing.close().catch(() => undefined);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      await route.close();
    }
  });

  it("without logError: the fetch handler's lines reach the app's logger bounded, and a logger that throws fails no request", async () => {
    const lines: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: (m: string) => void lines.push(m), error: (m: string) => void lines.push(m) };
    const route = createRouteHandlers(createApp({ name: 'bounded', version: '1.0.0', tools: [EchoTools], logger }), { auth: { verifyToken: async () => undefined, resource: 'http://localhost/mcp' } });
    const throwing = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => {
        throw new Error('the log sink is down');
      },
    };
    const fragile = createRouteHandlers(createApp({ name: 'fragile', version: '1.0.0', tools: [EchoTools], logger: throwing }), {
      auth: { verifyToken: async () => undefined, resource: 'http://localhost/mcp' },
    });
    try {
      await Promise.all([route.ready, fragile.ready]);
      // 50 requests with a token the verifier refuses: the fetch handler logs each refusal, a few of a kind per 10 s.
      for (let i = 0; i < 50; i++) {
        const refused = await route.POST(post('http://localhost/mcp', { authorization: 'Bearer nope' }));
        expect(refused.status).toBe(401);
      }
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.length).toBeLessThanOrEqual(6);
      expect((await fragile.POST(post('http://localhost/mcp', { authorization: 'Bearer nope' }))).status).toBe(401);
      const read = post('http://localhost/mcp');
      await read.text();
      expect((await fragile.POST(read)).status).toBe(500);
    } finally {
      await Promise.all([route.close(), fragile.close()]);
    }
  });
});
