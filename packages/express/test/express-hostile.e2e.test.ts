import 'reflect-metadata';
import express from 'express';
import type { Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/express';
import { browserFetch } from './fixtures/browserFetch';
import { GreeterTools } from './fixtures/greeterTools';
import { listenExpress } from './fixtures/listenExpress';

const PAGE = 'http://app.example.test';

class RegionTools {
  @Tool({ description: 'Report on a region; the region also travels as a header.' })
  report(@Param('region', { header: 'Region' }) region: string, @Param('query') query: string) {
    return `${region}: ${query}`;
  }
}

describe('Express 5, the endpoint with cors, called from a web page', () => {
  let server: Server;
  let url: string;
  let mcp: ReturnType<typeof toolwrightMiddleware>;
  beforeAll(async () => {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools, RegionTools] });
    const web = express();
    web.use(express.json());
    mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent', cors: { origins: [PAGE] }, allowedOrigins: [PAGE] });
    web.use(mcp);
    const listening = await listenExpress(web);
    server = listening.server;
    url = `${listening.base}/mcp`;
  });
  afterAll(async () => {
    await mcp.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it.each(['legacy', 'auto'] as const)("the SDK v2 client (%s negotiation) gets through the browser's preflights: every header it sends is allowed", async (mode) => {
    const refused: string[] = [];
    const client = new Client({ name: 'page', version: '1' }, { versionNegotiation: { mode } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { fetch: browserFetch(PAGE, refused) }));
      expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'legacy' ? '2025-11-25' : '2026-07-28');
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
    } finally {
      await client.close().catch(() => undefined);
    }
    expect(refused).toEqual([]);
  });

  it("lets a 2026-07-28 page send a tool's Mcp-Param headers (SEP-2243): the preflight allows the ones it asks for", async () => {
    const refused: string[] = [];
    const sent: string[] = [];
    const fetching = browserFetch(PAGE, refused);
    const client = new Client({ name: 'page', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    try {
      await client.connect(
        new StreamableHTTPClientTransport(new URL(url), {
          fetch: (input, init) => {
            sent.push(...[...new Headers(init?.headers).keys()].filter((name) => name.startsWith('mcp-param-')));
            return fetching(input, init);
          },
        }),
      );
      await client.listTools();
      expect((await client.callTool({ name: 'report', arguments: { region: 'eu-west', query: 'load' } })).content).toEqual([{ type: 'text', text: 'eu-west: load' }]);
    } finally {
      await client.close().catch(() => undefined);
    }
    expect(sent).toContain('mcp-param-region');
    expect(refused).toEqual([]);
  });

  it('allows no header a preflight asks for beyond the MCP ones and Mcp-Param-*', async () => {
    const preflight = await fetch(url, {
      method: 'OPTIONS',
      headers: { origin: PAGE, 'access-control-request-method': 'POST', 'access-control-request-headers': 'mcp-param-region, x-secret, mcp-param-bad name, cookie' },
    });
    expect(preflight.status).toBe(204);
    const allowed = (preflight.headers.get('access-control-allow-headers') ?? '').toLowerCase().split(/\s*,\s*/);
    expect(allowed).toContain('mcp-param-region');
    expect(allowed).toContain('mcp-method');
    for (const name of ['x-secret', 'cookie', 'mcp-param-bad name', 'mcp-param-bad']) expect(allowed).not.toContain(name);
  });
});

class WhoTools {
  @Tool({ description: 'Who is calling.' })
  whoami(@Ctx() ctx: ToolContext) {
    return { caller: ctx.authInfo ? { clientId: ctx.authInfo.clientId, scopes: ctx.authInfo.scopes } : null };
  }
}

describe("Express 5, the host's own authentication on req.auth (no auth option)", () => {
  let server: Server;
  let url: string;
  let mcp: ReturnType<typeof toolwrightMiddleware>;
  beforeAll(async () => {
    const app = await createApp({ name: 'who', version: '1.0.0', tools: [WhoTools] });
    const web = express();
    // As the host's own middleware would: an AuthInfo for one header, express-basic-auth's shape for another.
    web.use((req, _res, next) => {
      const who = req.headers['x-test-caller'];
      if (who === 'agent') (req as { auth?: unknown }).auth = { token: 't', clientId: 'agent-1', scopes: ['notes:read'] };
      if (who === 'basic') (req as { auth?: unknown }).auth = { user: 'admin', password: 'hunter2' };
      next();
    });
    mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent' });
    web.use(mcp);
    const listening = await listenExpress(web);
    server = listening.server;
    url = `${listening.base}/mcp`;
  });
  afterAll(async () => {
    await mcp.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const callerAs = async (who: string, mode: 'legacy' | 'auto') => {
    const client = new Client({ name: 'who', version: '1' }, { versionNegotiation: { mode } });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { 'x-test-caller': who } } }));
      const { content } = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: { text: string }[] };
      return JSON.parse(content[0]!.text) as unknown;
    } finally {
      await client.close().catch(() => undefined);
    }
  };

  it.each(['legacy', 'auto'] as const)('%s negotiation: an AuthInfo the host put on req.auth is the caller', async (mode) => {
    expect(await callerAs('agent', mode)).toEqual({ caller: { clientId: 'agent-1', scopes: ['notes:read'] } });
  });

  it.each(['legacy', 'auto'] as const)('%s negotiation: anything else on req.auth (a user and password) is no caller, and never reaches the tool', async (mode) => {
    expect(await callerAs('basic', mode)).toEqual({ caller: null });
  });
});

describe('Express 5, bodies the endpoint would not read as sent: compressed, or in a charset other than UTF-8', () => {
  const INITIALIZE = Buffer.from(
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'café', version: '1' } } }),
  );
  const latin1 = Buffer.from(INITIALIZE.toString(), 'latin1');

  /** An Express app with `parser` (if any) before the middleware; `send` POSTs bytes to its endpoint. */
  async function serveWith(parser?: express.RequestHandler) {
    const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
    const web = express();
    if (parser) web.use(parser);
    const mcp = toolwrightMiddleware(app, { requestLogLevel: 'silent' });
    web.use(mcp);
    const { server, base } = await listenExpress(web);
    const url = `${base}/mcp`;
    return {
      send: async (body: Uint8Array, headers: Record<string, string>) => {
        const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
        // A refusal is JSON; a served initialize may be an SSE stream.
        const refusal = response.status === 200 ? undefined : ((await response.json()) as { error: { code: number; message: string } });
        return { status: response.status, acceptEncoding: response.headers.get('accept-encoding'), error: refusal?.error };
      },
      stop: async () => {
        await mcp.close();
        server.closeAllConnections();
        await new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it('without a body parser: a gzip body, or any Content-Encoding, is 415 with Accept-Encoding: identity; a latin1 one is 415 naming UTF-8', async () => {
    const served = await serveWith();
    try {
      for (const [coding, body] of [
        ['gzip', gzipSync(INITIALIZE)],
        ['zstd-x', INITIALIZE],
      ] as const) {
        expect(await served.send(body, { 'content-encoding': coding })).toEqual({
          status: 415,
          acceptEncoding: 'identity',
          error: { code: -32000, message: expect.stringContaining(`Content-Encoding ${coding}`) },
        });
      }
      const foreign = await served.send(latin1, { 'content-type': 'application/json; charset=latin1' });
      expect(foreign).toMatchObject({ status: 415, error: { code: -32000, message: expect.stringContaining('JSON is read as UTF-8') } });
      expect((await served.send(INITIALIZE, { 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    } finally {
      await served.stop();
    }
  });

  it('after express.raw(): the bytes it inflated are served; bytes it left in latin1 are 415, and bytes that are not UTF-8 are 400, not read as UTF-8', async () => {
    const served = await serveWith(express.raw({ type: '*/*' }));
    try {
      expect((await served.send(gzipSync(INITIALIZE), { 'content-encoding': 'gzip' })).status).toBe(200);
      expect(await served.send(latin1, {})).toMatchObject({ status: 400, error: { code: -32700, message: expect.stringContaining('not valid UTF-8') } });
      expect(await served.send(latin1, { 'content-type': 'application/json; charset=ISO-8859-1' })).toMatchObject({
        status: 415,
        error: { code: -32000, message: expect.stringContaining('charset=ISO-8859-1') },
      });
    } finally {
      await served.stop();
    }
  });

  it('after express.json() or express.text(): the body they inflated and decoded from its charset is served', async () => {
    for (const parser of [express.json(), express.text({ type: '*/*' })]) {
      const served = await serveWith(parser);
      try {
        expect((await served.send(gzipSync(INITIALIZE), { 'content-encoding': 'gzip' })).status).toBe(200);
        expect((await served.send(Buffer.from(INITIALIZE.toString(), 'utf16le'), { 'content-type': 'application/json; charset=utf-16le' })).status).toBe(200);
      } finally {
        await served.stop();
      }
    }
  });
});
