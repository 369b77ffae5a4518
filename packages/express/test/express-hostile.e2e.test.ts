import 'reflect-metadata';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/express';
import { browserFetch } from './fixtures/browserFetch';
import { GreeterTools } from './fixtures/greeterTools';

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
    server = await new Promise<Server>((resolve) => {
      const s = web.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
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
    server = await new Promise<Server>((resolve) => {
      const s = web.listen(0, '127.0.0.1', () => resolve(s));
    });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
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
