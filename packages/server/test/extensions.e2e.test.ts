import 'reflect-metadata';
import { Ctx, RequireClientExtension, Tool, clientExtension, type ToolContext } from '@toolwright/core';
import { createApp, defineExtension, ProtocolError, type App, type Extension } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import * as z from 'zod';
import { codeOf } from './fixtures/codeOf';

/**
 * The extension API through the real SDK v2 client, in both eras, in memory and over HTTP:
 * the advertisement in `initialize` and `server/discover`, the client's declaration as the
 * app sees it (per session in 2025, per request in 2026-07-28), methods and notifications
 * served through the SDK, members gated on a client extension, and hostile method names.
 */
const SEARCH = 'com.example/search';
const heard: unknown[] = [];

const search = defineExtension({
  id: SEARCH,
  settings: { maxResults: 3, modes: ['exact', 'fuzzy'] },
  requests: {
    'example/search': {
      params: { type: 'object', properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', minimum: 1 } }, required: ['query'], additionalProperties: false },
      handle: ({ query, limit }: { query: string; limit?: number }, ctx) => ({
        hits: [`${query}-1`, `${query}-2`, `${query}-3`].slice(0, limit ?? 3),
        era: ctx.era,
        declared: ctx.clientExtension() ?? null,
      }),
    },
    'example/zod': { params: z.object({ n: z.number() }), handle: ({ n }: { n: number }) => ({ twice: n * 2 }) },
    'example/notifying': {
      handle: async (_params, ctx) => {
        await ctx.notify!('notifications/example/progress', { step: 1 });
        return {};
      },
    },
    'example/refusing': {
      handle: () => {
        throw new ProtocolError(-32602, 'query is too broad: narrow it down');
      },
    },
    'example/failing': {
      handle: () => {
        throw new Error('secret: /etc/db-password');
      },
    },
    // Object.prototype's member names are methods like any other.
    constructor: { handle: () => ({ method: 'constructor' }) },
    ['__proto__']: { handle: () => ({ method: '__proto__' }) },
  },
  notifications: {
    'notifications/example/ping': { handle: (params) => void heard.push(params) },
  },
});

const strict = defineExtension({
  id: 'com.example/strict',
  requireClientDeclaration: true,
  requests: { 'strict/echo': { handle: (params: Record<string, unknown>) => ({ echo: params }) } },
});

class Tools {
  @Tool({ description: 'Says which extensions the client declared for this request.' })
  declared(@Ctx() ctx: ToolContext) {
    return JSON.stringify({ search: clientExtension(ctx.envelope, SEARCH) ?? null, proto: clientExtension(ctx.envelope, '__proto__') ?? null });
  }

  @RequireClientExtension(SEARCH)
  @Tool({ description: 'Only for clients that declared the search extension.' })
  searchOnly() {
    return 'gated';
  }
}

const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
const declaring = { extensions: { [SEARCH]: { mode: 'fuzzy' } } };

type Client = Awaited<ReturnType<typeof createTestClient>>;
const call = (client: Client, method: string, params?: Record<string, unknown>) =>
  client.request({ method, ...(params && { params }) } as never, JSON_RESULT as never) as Promise<Record<string, unknown>>;

describe('extensions', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'ext', version: '1.0.0', tools: [Tools], extensions: [search, strict], logger: { debug() {}, info() {}, warn() {}, error() {} } });
  });

  describe.each([
    ['2025-11-25', 'memory'],
    ['2026-07-28', 'memory'],
    ['2025-11-25', 'http'],
    ['2026-07-28', 'http'],
  ] as const)('%s over %s', (protocol, transport) => {
    let client: Client;
    let plain: Client;
    beforeAll(async () => {
      client = await createTestClient(app, { protocol, transport, capabilities: declaring } as never);
      plain = await createTestClient(app, { protocol, transport } as never);
    });
    afterAll(async () => {
      await client.close();
      await plain.close();
    });

    it('advertises each extension with its settings', () => {
      expect(client.getServerCapabilities()?.extensions).toEqual({ [SEARCH]: { maxResults: 3, modes: ['exact', 'fuzzy'] }, 'com.example/strict': {} });
    });

    it('serves the methods through the SDK, with the client declaration as the app sees it', async () => {
      const era = protocol === '2025-11-25' ? 'legacy' : 'modern';
      expect(await call(client, 'example/search', { query: 'tea', limit: 2 })).toMatchObject({ hits: ['tea-1', 'tea-2'], era, declared: { mode: 'fuzzy' } });
      expect(await call(plain, 'example/search', { query: 'tea' })).toMatchObject({ hits: ['tea-1', 'tea-2', 'tea-3'], declared: null });
      expect(await call(client, 'example/zod', { n: 21 })).toMatchObject({ twice: 42 });
      expect(JSON.parse(await toolText(client.callTool({ name: 'declared', arguments: {} })))).toEqual({ search: { mode: 'fuzzy' }, proto: null });
    });

    it('refuses bad params with -32602 naming the field', async () => {
      const refused = await codeOf(call(client, 'example/search', { query: '', extra: 1 }));
      expect(refused).toMatchObject({ code: -32602 });
      expect((refused as { message: string }).message).toMatch(/query/);
      expect(await codeOf(call(client, 'example/zod', { n: 'x' }))).toMatchObject({ code: -32602 });
    });

    it('passes a ProtocolError on, and answers any other error -32603 without its message', async () => {
      expect(await codeOf(call(client, 'example/refusing', {}))).toEqual({ code: -32602, message: 'query is too broad: narrow it down' });
      const failed = await codeOf(call(client, 'example/failing', {}));
      expect(failed).toEqual({ code: -32603, message: 'Internal error' });
    });

    it('serves Object.prototype member names only where registered', async () => {
      expect(await call(client, 'constructor', {})).toMatchObject({ method: 'constructor' });
      expect(await call(client, '__proto__', {})).toMatchObject({ method: '__proto__' });
      for (const method of ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf']) {
        expect(await codeOf(call(client, method, {}))).toMatchObject({ code: -32601 });
      }
    });

    it('refuses a requireClientDeclaration extension to clients that did not declare it', async () => {
      const refused = await codeOf(call(plain, 'strict/echo', { a: 1 }));
      expect(refused).toMatchObject({ code: -32021 });
      const declared = await createTestClient(app, { protocol, transport, capabilities: { extensions: { 'com.example/strict': {} } } } as never);
      try {
        expect(await call(declared, 'strict/echo', { a: 1 })).toMatchObject({ echo: { a: 1 } });
      } finally {
        await declared.close();
      }
    });

    it('gates a member on the client extension: hidden from the list, and unknown to a call', async () => {
      const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);
      expect(await names(client)).toContain('search_only');
      expect(await names(plain)).not.toContain('search_only');
      expect(await toolText(client.callTool({ name: 'search_only', arguments: {} }))).toBe('gated');
      expect(await codeOf(plain.callTool({ name: 'search_only', arguments: {} }))).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'search_only'") });
    });
  });

  it('sends the extension notification on the request, and hears the client notifications (2025 session)', async () => {
    const client = await createTestClient(app, { protocol: '2025-11-25', capabilities: declaring });
    const got: unknown[] = [];
    client.fallbackNotificationHandler = async (n) => void got.push(n);
    try {
      await call(client, 'example/notifying', {});
      expect(got).toContainEqual(expect.objectContaining({ method: 'notifications/example/progress', params: { step: 1 } }));
      heard.length = 0;
      await client.notification({ method: 'notifications/example/ping', params: { at: 1 } } as never);
      await client.ping();
      expect(heard).toEqual([{ at: 1 }]);
    } finally {
      await client.close();
    }
  });

  it('advertises the extensions in server/discover (2026-07-28)', async () => {
    const client = await createTestClient(app, { protocol: '2026-07-28' });
    try {
      const discovered = await client.request({ method: 'server/discover', params: {} } as never, JSON_RESULT as never);
      expect((discovered as { capabilities: { extensions?: object } }).capabilities.extensions).toHaveProperty([SEARCH], { maxResults: 3, modes: ['exact', 'fuzzy'] });
    } finally {
      await client.close();
    }
  });

  it('refuses definitions it cannot serve, naming each problem', async () => {
    expect(() => defineExtension({ id: 'search' } as Extension)).toThrow(/reverse-DNS prefix/);
    expect(() => defineExtension({ id: 'com.example/x', requests: { 'tools/call': { handle: () => ({}) } } })).toThrow(/protocol's own/);
    expect(() => defineExtension({ id: 'com.example/x', settings: { when: new Date() } as never })).toThrow(/not a plain JSON object/);
    expect(() => defineExtension({ id: 'com.example/x', requests: { 'x/y': {} as never } })).toThrow(/handle\(params, ctx\)/);
    await expect(createApp({ name: 'x', version: '1', tools: [Tools], extensions: [search, search] })).rejects.toThrow(/served twice/);
    const clash = defineExtension({ id: 'com.example/other', requests: { 'example/search': { handle: () => ({}) } } });
    await expect(createApp({ name: 'x', version: '1', tools: [Tools], extensions: [search, clash] })).rejects.toThrow(/also one of 'com.example\/search'/);
  });

  it('serves no extensions capability when the app has none', async () => {
    const bare = await createApp({ name: 'bare', version: '1.0.0', tools: [Tools] });
    const client = await createTestClient(bare);
    try {
      expect(client.getServerCapabilities()).not.toHaveProperty('extensions');
    } finally {
      await client.close();
    }
  });
});
