/**
 * Pins what the guide pages on dependency injection, transforms, app options and OpenAPI
 * descriptions say a client sees, for the statements no other test holds the page to. Each case
 * builds an app with `createApp` and drives it through the real SDK client in memory; the
 * OpenAPI cases call a real HTTP API on 127.0.0.1.
 */
import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Service } from 'typedi';
import { Param, Resource, Tool, TransformTools, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { fromOpenApi } from '@toolwright/openapi';
import { CurrencyTools } from '../snippets/dependency-injection/typedi';
import { buildOf, connect, textOf } from './helpers';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

describe('Dependency injection page: the default container', () => {
  it('builds an undecorated class without constructor parameters once per app, and @Service({ transient: true }) once per call', async () => {
    let plainBuilt = 0;
    class Plain {
      private readonly n = ++plainBuilt;
      @Tool({ description: 'd' }) which() {
        return String(this.n);
      }
    }
    let transientBuilt = 0;
    @Service({ transient: true })
    class Fresh {
      private readonly n = ++transientBuilt;
      @Tool({ description: 'd' }) fresh() {
        return String(this.n);
      }
    }
    const first = await connect([Plain, Fresh]);
    const second = await connect([Plain]);
    const a1 = textOf(await first.client.callTool({ name: 'which', arguments: {} }));
    const a2 = textOf(await first.client.callTool({ name: 'which', arguments: {} }));
    const b1 = textOf(await second.client.callTool({ name: 'which', arguments: {} }));
    expect(a1).toBe(a2);
    expect(b1).not.toBe(a1);
    const f1 = Number(textOf(await first.client.callTool({ name: 'fresh', arguments: {} })));
    const f2 = Number(textOf(await first.client.callTool({ name: 'fresh', arguments: {} })));
    expect(f2).toBeGreaterThan(f1);
    await first.close();
    await second.close();
  });

  it('refuses a class with constructor parameters but no recorded types, with the message the page shows', async () => {
    class Stock {}
    // No class decorator, so TypeScript records no design:paramtypes for the constructor.
    class InventoryTools {
      constructor(private readonly stock: Stock) {}
      @Tool({ description: 'd' }) count() {
        return String(this.stock !== undefined);
      }
    }
    const message = await buildOf([InventoryTools]);
    expect(message).toContain(
      'InventoryTools: its constructor takes 1 parameter, but no constructor types were emitted for this tool class (design:paramtypes), so the container cannot tell what to inject and every call would fail',
    );
    expect(message).toContain('Fix: give InventoryTools a class decorator (@Service() (typedi))');
  });
});

describe('Dependency injection page: the typedi snippet', () => {
  it('converts between the codes it knows, and names no rate for a code that is a member of every object', async () => {
    const { client, close } = await connect([CurrencyTools]);
    expect(textOf(await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: 'USD' } }))).toBe('10.80 USD');
    expect(textOf(await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'constructor', to: 'USD' } }))).toBe('No rate for constructor -> USD.');
    expect(textOf(await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: '__proto__' } }))).toBe('No rate for EUR -> __proto__.');
    await close();
  });
});

describe('Dependency injection page: asked once at startup', () => {
  it('reports a class the container cannot build as a build error, with the other problems, before any call', async () => {
    class Unbuildable {
      @Tool({ description: 'd' }) a() {
        return 'a';
      }
    }
    class Undecorated {
      @Tool({ description: 'd' }) b(@Param('x') x: string, y: string) {
        return x + y;
      }
    }
    const container = {
      get<T>(cls: new (...args: never[]) => T): T {
        if (cls === (Unbuildable as unknown)) throw new Error('no provider for Unbuildable');
        return new cls();
      },
    };
    const message = await createApp({ name: 'docs', version: '0.0.0', tools: [Unbuildable, Undecorated], container }).then(
      () => 'built',
      (error: Error) => error.message,
    );
    expect(message).toContain('Unbuildable');
    expect(message).toContain('no provider for Unbuildable');
    expect(message).toContain('Undecorated.b param #1: has no decorator');
  });
});

describe('Transforms page', () => {
  class OrderTools {
    @Tool({ description: 'Search orders.' })
    search(@Param('tenant') tenant: string, @Param('status', { enum: ['open', 'paid', 'void'] }) status: string, @Param('limit', { maximum: 100 }) limit: number) {
      return { tenant, status, limit };
    }
  }
  @TransformTools({
    search: {
      name: 'find_orders',
      description: (current) => `${current} Only your own orders.`,
      arguments: {
        tenant: { compute: (ctx: ToolContext) => ctx.authInfo?.extra?.sub ?? 'anonymous' },
        status: { narrow: { enum: ['open', 'paid'] } },
        limit: { narrow: { maximum: 10 } },
      },
    },
  })
  class MyOrders extends OrderTools {}

  it('answers a hidden argument and a value outside a narrowed schema with the lines the page quotes', async () => {
    const { client, close } = await connect([MyOrders]);
    const hidden = await client.callTool({ name: 'find_orders', arguments: { tenant: 'x', status: 'open', limit: 1 } });
    expect(hidden.isError).toBe(true);
    expect(textOf(hidden)).toBe("Invalid arguments for tool 'find_orders':\n- tenant: is set by the server and may not be sent; leave it out");
    const narrowed = await client.callTool({ name: 'find_orders', arguments: { status: 'void', limit: 1 } });
    expect(narrowed.isError).toBe(true);
    expect(textOf(narrowed)).toBe('Invalid arguments for tool \'find_orders\':\n- status: must be one of: "open", "paid" (got "void")');
    const ok = await client.callTool({ name: 'find_orders', arguments: { status: 'paid', limit: 10 } });
    expect(JSON.parse(textOf(ok)!)).toEqual({ tenant: 'anonymous', status: 'paid', limit: 10 });
    await close();
  });

  it('fails a call whose compute throws with a result about configuration that shows nothing of the error', async () => {
    class Tools {
      @Tool({ description: 'd' }) who(@Param('tenant') tenant: string) {
        return tenant;
      }
    }
    @TransformTools({
      who: {
        arguments: {
          tenant: {
            compute: () => {
              throw new Error('db password is hunter2');
            },
          },
        },
      },
    })
    class Broken extends Tools {}
    const { client, close } = await connect([Broken]);
    const result = await client.callTool({ name: 'who', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/configuration/);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    await close();
  });
});

describe('App options page', () => {
  it("fails a tool call after toolTimeoutMs, unless the tool's own @Tool({ timeoutMs }) gives it longer", async () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    class Slow {
      @Tool({ description: 'd' }) async plain() {
        await sleep(300);
        return 'done';
      }
      @Tool({ description: 'd', timeoutMs: 5_000 }) async patient() {
        await sleep(300);
        return 'done';
      }
    }
    const { client, close } = await connect([Slow], { toolTimeoutMs: 50 });
    const [plain, patient] = await Promise.all([client.callTool({ name: 'plain', arguments: {} }), client.callTool({ name: 'patient', arguments: {} })]);
    expect(plain.isError).toBe(true);
    expect(textOf(plain)).toMatch(/50 ?ms/);
    expect(patient).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    await close();
  });

  it('sends 2026-07-28 lists with a 60 s private cache hint by default, and reads with ttlMs 0', async () => {
    class Notes {
      @Tool({ description: 'd' }) ping() {
        return 'pong';
      }
      @Resource('notes://all', { description: 'd' }) all() {
        return 'n';
      }
    }
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [Notes] }), { era: 'modern' });
    expect(await client.listTools()).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(await client.listResources()).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
    expect(await client.readResource({ uri: 'notes://all' })).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    await client.close();
  });

  it('answers a URI longer than maxUriLength (default 2048) with -32602', async () => {
    class Files {
      @Resource('files://{name}', { description: 'd' }) file(@Param('name') name: string) {
        return name;
      }
    }
    const { client, close } = await connect([Files]);
    expect(await client.readResource({ uri: `files://${'a'.repeat(2040)}` })).toBeDefined();
    const long = await client.readResource({ uri: `files://${'a'.repeat(2041)}` }).then(
      () => undefined,
      (error: { code?: number }) => error.code,
    );
    expect(long).toBe(-32602);
    await close();
  });
});

describe('OpenAPI page', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/pets/7') {
        res.writeHead(302, { location: 'https://elsewhere.example/pets/7' }).end();
        return;
      }
      if (req.url === '/pets/42') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"no pet 42"}');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ url: req.url }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const document = {
    openapi: '3.0.3',
    info: { title: 'Pets', version: '1' },
    paths: {
      '/pets/{petId}': {
        get: { parameters: [{ name: 'petId', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'ok' } } },
      },
      '/files/{name}': {
        get: { operationId: 'file', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'ok' } } },
      },
      '/labels/{ids}': {
        get: {
          operationId: 'labels',
          parameters: [{ name: 'ids', in: 'path', required: true, style: 'label', schema: { type: 'array', items: { type: 'string' } } }],
          responses: { '200': { description: 'ok' } },
        },
      },
    },
  };

  it('names an operation without operationId from its method and path, and answers a 404 with the operation, status and body', async () => {
    const pets = await fromOpenApi(document, { baseUrl });
    const app = await createApp({ name: 'pets', version: '1', tools: [pets] });
    const client = await createTestClient(app);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['file', 'get__pets_petId', 'labels']);
    const missing = await client.callTool({ name: 'get__pets_petId', arguments: { petId: 42 } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toBe('GET /pets/{petId} failed: HTTP 404 Not Found\n{"message":"no pet 42"}');
    await client.close();
  });

  it('does not follow redirects, keeps a path argument in one segment, and refuses . and .. before sending', async () => {
    const pets = await fromOpenApi(document, { baseUrl });
    const client = await createTestClient(await createApp({ name: 'pets', version: '1', tools: [pets] }));
    const moved = await client.callTool({ name: 'get__pets_petId', arguments: { petId: 7 } });
    expect(moved.isError).toBe(true);
    expect(textOf(moved)).toContain('HTTP 302');
    expect(textOf(moved)).toContain('https://elsewhere.example/pets/7');
    expect((await client.callTool({ name: 'file', arguments: { name: '../admin?x=1' } })).structuredContent).toEqual({ url: '/files/..%2Fadmin%3Fx%3D1' });
    for (const name of ['', '.', '..']) {
      const refused = await client.callTool({ name: 'file', arguments: { name } });
      expect(refused.isError).toBe(true);
      expect(textOf(refused)).toContain("'name'");
    }
    await client.close();
  });

  it('stops the build with a ConfigError naming both operations when two would share a tool name', async () => {
    const clash = {
      openapi: '3.0.3',
      info: { title: 'Clash', version: '1' },
      paths: {
        '/a': { get: { operationId: 'same', responses: { '200': { description: 'ok' } } } },
        '/b': { get: { operationId: 'same', responses: { '200': { description: 'ok' } } } },
      },
    };
    const error = await fromOpenApi(clash, { baseUrl }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).toBe('ConfigError');
    expect(error?.message).toContain('GET /a');
    expect(error?.message).toContain('GET /b');
  });

  it('writes a path parameter in its style (label)', async () => {
    const pets = await fromOpenApi(document, { baseUrl });
    const app = await createApp({ name: 'pets', version: '1', tools: [pets] });
    const client = await createTestClient(app);
    const result = await client.callTool({ name: 'labels', arguments: { ids: ['a', 'b'] } });
    expect(result.structuredContent).toEqual({ url: '/labels/.a,b' });
    await client.close();
  });
});
