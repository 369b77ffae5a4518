import 'reflect-metadata';
import { BuildError, Param, Tool, TransformTools, type ToolContext, type ToolTransforms } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, type TestEra } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from './fixtures/waitFor';

/**
 * Issue 28, transforms: one tool reshaped for clients (renamed, described anew, an argument
 * hidden with a constant or a value computed from the caller, arguments narrowed) by the
 * `@TransformTools` decorator on a local class and by a mount's `transforms`; and
 * `app.mount(...)` before and while the app serves. SDK v2 client in memory, both eras.
 */
class OrderTools {
  @Tool({ description: 'Search orders.' })
  search(
    @Param('tenant') tenant: string,
    @Param('region') region: string,
    @Param('status', { enum: ['open', 'paid', 'void'] }) status: string,
    @Param('limit', { type: () => Number, maximum: 100, optional: true }) limit?: number,
  ) {
    return { tenant, region, status, limit: limit ?? null };
  }

  @Tool({ description: 'Ping.' })
  ping() {
    return 'pong';
  }
}

const transforms: ToolTransforms = {
  search: {
    name: 'find_orders',
    description: (current) => `${current} Only this caller's orders.`,
    arguments: {
      tenant: { compute: (ctx: ToolContext) => ctx.authInfo?.extra?.sub },
      region: { value: 'eu' },
      status: { narrow: { enum: ['open', 'paid'] }, description: 'open or paid' },
      limit: { narrow: { maximum: 10 } },
    },
  },
};

@TransformTools(transforms)
class MyOrders extends OrderTools {}

const sources: [string, () => Promise<App>, string][] = [
  ['@TransformTools on a subclass', () => createApp({ name: 'orders', version: '1', tools: [MyOrders] }), 'find_orders'],
  [
    "a mount's transforms",
    async () => createApp({ name: 'front', version: '1', tools: [], mount: [{ app: await createApp({ name: 'o', version: '1', tools: [OrderTools] }), namespace: 'shop', transforms }] }),
    'shop_find_orders',
  ],
];

describe.each(sources)('%s', (_label, make, toolName) => {
  describe.each(['legacy', 'modern'] as TestEra[])('%s era', (era) => {
    let client: Client;
    beforeAll(async () => {
      client = await createTestClient(await make(), { era, auth: { claims: { sub: 'alice' } } });
    });
    afterAll(() => client.close());

    it('lists the tool renamed, described anew, without its hidden arguments and with the narrowed ones', async () => {
      const tool = (await client.listTools()).tools.find((t) => t.name === toolName)!;
      expect(tool.description).toBe("Search orders. Only this caller's orders.");
      expect(Object.keys(tool.inputSchema.properties!)).toEqual(['status', 'limit']);
      expect(tool.inputSchema.required).toEqual(['status']);
      expect(tool.inputSchema.properties!.status).toMatchObject({ enum: ['open', 'paid'], description: 'open or paid' });
      expect(tool.inputSchema.properties!.limit).toMatchObject({ maximum: 10 });
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain(toolName.replace('find_orders', 'search'));
    });

    it('fills the hidden arguments: a constant and the caller subject', async () => {
      const result = await client.callTool({ name: toolName, arguments: { status: 'paid', limit: 3 } });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent ?? JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ tenant: 'alice', region: 'eu', status: 'paid', limit: 3 });
    });

    it('answers a hidden argument sent by the client with an isError field message', async () => {
      const result = await client.callTool({ name: toolName, arguments: { status: 'paid', tenant: 'mallory' } });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toBe(`Invalid arguments for tool '${toolName}':\n- tenant: is set by the server and may not be sent; leave it out`);
    });

    it('enforces the narrowed schemas on calls', async () => {
      const result = await client.callTool({ name: toolName, arguments: { status: 'void', limit: 50 } });
      expect(result.isError).toBe(true);
      const text = (result.content as { text: string }[])[0]!.text;
      expect(text).toMatch(/^Invalid arguments for tool '.*':\n- status: .*\n- limit: .*10/);
    });
  });
});

it('in an app that coerces arguments, a string past a narrowed bound is refused too', async () => {
  const client = await createTestClient(await createApp({ name: 'c', version: '1', tools: [MyOrders], coerce: true }), { auth: { claims: { sub: 'ann' } } });
  const refused = await client.callTool({ name: 'find_orders', arguments: { status: 'open', limit: '50' } });
  expect((refused.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for tool 'find_orders':\n- limit: .*10/);
  const coerced = await client.callTool({ name: 'find_orders', arguments: { status: 'open', limit: '5' } });
  expect(coerced.structuredContent ?? JSON.parse((coerced.content as { text: string }[])[0]!.text)).toEqual({ tenant: 'ann', region: 'eu', status: 'open', limit: 5 });
  await client.close();
});

describe('transform build checks', () => {
  const build = async (t: ToolTransforms) => {
    @TransformTools(t)
    class Bad extends OrderTools {}
    return createApp({ name: 'x', version: '1', tools: [Bad] }).catch((e: unknown) => e as BuildError);
  };

  it('refuses unknown tools and arguments, widening, values the tool rejects, with the fix', async () => {
    const error = (await build({
      nope: { name: 'x' },
      search: {
        arguments: {
          missing: { value: 1 },
          region: { value: 7 },
          status: { narrow: { enum: ['open', 'lost'] } },
          limit: { narrow: { maximum: 1000 } },
        },
      },
    })) as BuildError;
    expect(error).toBeInstanceOf(BuildError);
    const whats = error.problems.map((p) => p.what);
    expect(whats).toEqual([
      "its transform names argument 'missing', which the tool does not have",
      expect.stringMatching(/^its transform's value for argument 'region' does not fit the argument's schema/),
      "its transform's `narrow` for argument 'status' allows \"lost\", which the tool does not accept",
      "its transform's `narrow` for argument 'limit' widens the schema (maximum 1000 > 100)",
      "@TransformTools names tool 'nope', which the class does not serve",
    ]);
    const again = (await build({ nope: { name: 'x' } })) as BuildError;
    expect(again.problems).toEqual([{ where: 'Bad', what: "@TransformTools names tool 'nope', which the class does not serve", fix: 'use one of its tool names (before any rename): search, ping.' }]);
  });

  it('refuses a mount transform for a tool the mounted app does not serve, and a rename onto another tool', async () => {
    const orders = await createApp({ name: 'o', version: '1', tools: [OrderTools] });
    const error = (await createApp({ name: 'f', version: '1', tools: [], mount: [{ app: orders, namespace: 'shop', transforms: { serach: { name: 'x' }, search: { name: 'ping' } } }] }).catch(
      (e: unknown) => e,
    )) as BuildError;
    expect(error).toBeInstanceOf(BuildError);
    expect(error.problems.map((p) => `${p.where}: ${p.what}`)).toEqual([
      "mount 'shop': its transforms name tool 'serach', which the mounted app does not serve",
      "tool 'shop_ping': served by both OrderTools.search (mount 'shop') and OrderTools.ping (mount 'shop')",
    ]);
  });
});

class FrontDesk {
  @Tool({ description: 'Say hello.' })
  hello() {
    return 'hello';
  }
}

describe('app.mount()', () => {
  it('before the app serves: the same as the mount option', async () => {
    const app = await createApp({ name: 'front', version: '1', tools: [FrontDesk] });
    await app.mount(await createApp({ name: 'o', version: '1', tools: [OrderTools] }), { namespace: 'shop', transforms });
    const client = await createTestClient(app, { auth: { claims: { sub: 'bob' } } });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello', 'shop_find_orders', 'shop_ping']);
    expect((await client.callTool({ name: 'shop_ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
    await client.close();
  });

  it.each(['legacy', 'modern'] as TestEra[])('%s era, while it serves: start hooks first, then list-changed; after stop: started when the app starts again', async (era) => {
    const steps: string[] = [];
    const app = await createApp({ name: 'front', version: '1', tools: [FrontDesk], listChangedDebounceMs: 1, cache: { lists: { ttlMs: 1 } } });
    await app.start();
    const client = await createTestClient(app, { era });
    const heard: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void heard.push('tools'));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello']);
    const orders = await createApp({ name: 'o', version: '1', tools: [OrderTools], onStart: () => void steps.push('orders started') });
    await app.mount({ app: orders, namespace: 'shop' });
    expect(steps).toEqual(['orders started']);
    if (era === 'legacy') await waitFor(() => heard.includes('tools'), 'notifications/tools/list_changed');
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'shop_search'), 'shop_search in tools/list');
    expect((await client.callTool({ name: 'shop_ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);

    const clash = app.mount({ app: await createApp({ name: 'o2', version: '1', tools: [OrderTools] }), namespace: 'shop' });
    await expect(clash).rejects.toBeInstanceOf(BuildError);
    await client.close();
    await app.stop();
    // A stopped app may start again (another listener): a mount meanwhile is as before it served.
    await app.mount({ app: await createApp({ name: 'o3', version: '1', tools: [OrderTools], onStart: () => void steps.push('o3 started') }), namespace: 'late' });
    expect(steps).toEqual(['orders started']);
    await app.start();
    expect(steps).toEqual(['orders started', 'orders started', 'o3 started']);
    // Started again, it serves: a mount starts its app at once, as before the first stop.
    await app.mount({ app: await createApp({ name: 'o4', version: '1', tools: [OrderTools], onStart: () => void steps.push('o4 started') }), namespace: 'later' });
    expect(steps).toEqual(['orders started', 'orders started', 'o3 started', 'o4 started']);
    await app.stop();
  });
});
