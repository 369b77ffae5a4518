import 'reflect-metadata';
import { request as httpRequest } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import Koa from 'koa';
import { bodyParser } from '@koa/bodyparser';
import { createApp } from '@toolwright/server';
import { createHttpHandler } from '@toolwright/server/http';
import { startExpress } from '../snippets/frameworks/express';
import { startFastify } from '../snippets/frameworks/fastify';
import { startHono } from '../snippets/frameworks/hono';
import { startNest } from '../snippets/frameworks/nestjs';
import { behindBodyParser, koaMcp, startKoa } from '../snippets/frameworks/koa';
import { GreeterTools } from '../snippets/frameworks/greeter.tools';
import { ERAS, INITIALIZE, connectEra, post } from '../../packages/express/test/fixtures/mcpClients';

/** The server's base URL once it listens. */
async function baseOf(server: Server): Promise<string> {
  await new Promise((resolve) => (server.listening ? resolve(undefined) : server.once('listening', resolve)));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A raw POST of the initialize request with a Host header of its own (fetch sends the URL's). */
function postWithHost(url: string, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (response) => {
      response.resume();
      resolve(response.statusCode!);
    });
    request.on('error', reject);
    request.end(INITIALIZE);
  });
}

/** Runs `use` with the base URL of a snippet's server once it listens, then closes the server, whatever `use` did. */
async function whileServed(started: { server: Server; close(): Promise<void> }, use: (base: string) => Promise<void>): Promise<void> {
  const base = await baseOf(started.server);
  try {
    await use(base);
  } finally {
    await started.close();
  }
}

/** /status answers `{ up: true }` beside the endpoint. */
async function expectStatus(base: string): Promise<void> {
  expect(await (await fetch(`${base}/status`)).json()).toEqual({ up: true });
}

/** A client of `era` (with `headers`) connects to `${base}/mcp` and calls greet. */
async function expectGreeting(era: (typeof ERAS)[number], base: string, headers: Record<string, string> = {}): Promise<void> {
  const client = await connectEra(era, `${base}/mcp`, headers);
  expect((await client.callTool('greet', { name: 'Ada' })).content[0].text).toBe('Hello, Ada!');
  await client.close();
}

/** The Frameworks page's snippets, run as the page shows them (port 0), driven by the SDK clients in both eras. */
describe('frameworks guide', () => {
  // The snippets log each request to stderr, as a server should.
  let stderr: jest.SpyInstance;
  beforeAll(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterAll(() => stderr.mockRestore());

  it.each(ERAS)('Express: the snippet serves /mcp beside /status (%s)', async (era) => {
    await whileServed(await startExpress(0), async (base) => {
      await expectStatus(base);
      await expectGreeting(era, base);
    });
  });

  it.each(ERAS)('Fastify: the snippet serves /mcp beside /status (%s)', async (era) => {
    const fastify = await startFastify(0);
    const base = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
    try {
      await expectStatus(base);
      await expectGreeting(era, base);
    } finally {
      await fastify.close();
    }
  });

  it.each(ERAS)('Hono: the snippet serves /mcp beside /status, behind its bearer middleware (%s)', async (era) => {
    await whileServed(await startHono(0), async (base) => {
      await expectStatus(base);
      await expect(connectEra(era, `${base}/mcp`)).rejects.toThrow();
      await expectGreeting(era, base, { authorization: 'Bearer dev-token' });
    });
  });

  it.each(ERAS)('NestJS: the snippet serves Nest-built tools on the app port; the Nest guard refuses restock without the staff scope (%s)', async (era) => {
    const nest = await startNest(0);
    nest.useLogger(false);
    const base = (await nest.getUrl()).replace('[::1]', '127.0.0.1');
    try {
      await expectStatus(base);
      const client = await connectEra(era, `${base}/mcp`);
      expect(JSON.parse((await client.callTool('stock', { sku: 'mug' })).content[0].text!)).toEqual({ sku: 'mug', count: 12 });
      const restock = await client.callTool('restock', { sku: 'mug' });
      expect(restock.isError).toBe(true);
      expect(restock.content[0].text).toMatch(/^Forbidden/);
      await client.close();
    } finally {
      await nest.close();
    }
  });

  it.each(ERAS)('Koa: the snippet serves /mcp beside /status through the node handler (%s)', async (era) => {
    await whileServed(await startKoa(0), async (base) => {
      await expectStatus(base);
      await expectGreeting(era, base);
    });
  });

  it("Koa: Toolwright's defences hold, other paths stay Koa's, and a notification gets 202", async () => {
    await whileServed(await startKoa(0), async (base) => {
      expect((await post(`${base}/mcp`, INITIALIZE, { origin: 'https://evil.example' })).status).toBe(403);
      expect(await postWithHost(`${base}/mcp`, 'evil.example')).toBe(403);
      expect(await postWithHost(`${base}/mcp`, 'api.example.com')).toBe(200);
      const bad = await post(`${base}/mcp`, '{"jsonrpc":');
      expect(bad.status).toBe(400);
      expect(((await bad.json()) as { error: { code: number } }).error.code).toBe(-32700);
      const other = await fetch(`${base}/nope`);
      expect([other.status, await other.text()]).toEqual([404, 'Not Found']); // Koa's own 404
      expect((await fetch(`${base}/healthz`)).status).toBe(404); // health: false leaves /healthz to the app
      // Stateless 2026-07-28 notification: answered 202 on the response Koa had preset to 404.
      const note = await post(`${base}/mcp`, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } }), {
        'mcp-protocol-version': '2026-07-28',
      });
      expect(note.status).toBe(202);
      // A 2025-11-25 session's GET stream opens with 200 too.
      const init = await post(`${base}/mcp`, INITIALIZE);
      const session = init.headers.get('mcp-session-id')!;
      await init.text();
      const stream = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
      expect([stream.status, stream.headers.get('content-type')]).toEqual([200, 'text/event-stream']);
      await stream.body!.cancel();
    });
  });

  describe('Koa: a body parser before the endpoint', () => {
    async function serve(mount: (web: Koa, mcp: ReturnType<typeof createHttpHandler>) => void) {
      const app = await createApp({ name: 'greeter', version: '1.0.0', tools: [GreeterTools] });
      const mcp = createHttpHandler(app, { health: false });
      const web = new Koa();
      mount(web, mcp);
      const server = web.listen(0, '127.0.0.1');
      const base = await baseOf(server);
      return {
        base,
        close: async () => {
          await mcp.close();
          await new Promise((resolve) => server.close(resolve));
        },
      };
    }

    it.each(ERAS)('with patchNode the handler takes the parsed body from ctx.req.body (%s)', async (era) => {
      const { base, close } = await serve(behindBodyParser);
      try {
        await expectGreeting(era, base);
      } finally {
        await close();
      }
    });

    it('without it, the spent stream gets an immediate 500, the server log says how to fix the mount, and the endpoint keeps serving', async () => {
      const { base, close } = await serve((web, mcp) => {
        web.use(bodyParser()); // keeps the JSON on ctx.request.body, where the node handler cannot see it
        web.use(koaMcp(mcp));
      });
      try {
        // No clock here: the 30 s body timeout would answer 408, not this 500 (and outlast jest's test timeout).
        const spent = await post(`${base}/mcp`, INITIALIZE);
        expect(spent.status).toBe(500);
        expect(((await spent.json()) as { error: { code: number; message: string } }).error).toEqual({
          code: -32603,
          message: 'Internal error: the request body was read before the MCP endpoint got it. The server log has the details.',
        });
        expect(stderr.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('Mount the endpoint before the body parser, or set req.body to the parsed JSON.'))).toHaveLength(1);
        // A GET carries no body: the endpoint still answers it, its own way.
        const get = await fetch(`${base}/mcp`, { headers: { accept: 'text/event-stream' } });
        expect([get.status, ((await get.json()) as { error: { message: string } }).error.message]).toEqual([400, expect.stringMatching(/Mcp-Session-Id header is required/)]);
      } finally {
        await close();
      }
    });
  });
});
