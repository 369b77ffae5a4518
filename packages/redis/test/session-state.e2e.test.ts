import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, startInstances, stopInstances, textOf, type Instance } from './fixtures/instances';

class Cart {
  @Tool({ description: 'Adds an item to the cart of this session.' })
  async add(@Param('item') item: string, @Ctx() ctx: ToolContext) {
    const items = (await ctx.session!.get<string[]>('cart')) ?? [];
    items.push(item);
    await ctx.session!.set('cart', items);
    return items.join(',');
  }

  @Tool({ description: 'Stores what it is given in the session, and reads it back.' })
  async keep(@Ctx() ctx: ToolContext, @Param('case') which: string) {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const values: Record<string, unknown> = { fn: () => 1, symbol: Symbol('s'), bigint: 1n, circular, plain: { a: [1, 'b'] } };
    try {
      await ctx.session!.set('k', values[which]);
    } catch (error) {
      return `refused (${(error as Error).name}): ${(error as Error).message}`;
    }
    return `kept: ${JSON.stringify(await ctx.session!.get('k'))}`;
  }

  @Tool({ description: 'Empties the cart.' })
  async clear(@Ctx() ctx: ToolContext) {
    return String(await ctx.session!.delete('cart'));
  }
}

describe('ctx.session kept in Redis with the session', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(3, redis.url, { name: 'cart', version: '1', tools: [Cart] });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('is seen by every instance, kept apart per session, and removed with the session', async () => {
    const urls = instances.map((i) => i.url);
    const [one, two] = await Promise.all([connectRoundRobin(urls), connectRoundRobin(urls)]);
    expect(textOf(await one.client.callTool({ name: 'add', arguments: { item: 'a' } }))).toBe('a');
    expect(textOf(await two.client.callTool({ name: 'add', arguments: { item: 'x' } }))).toBe('x');
    expect(textOf(await one.client.callTool({ name: 'add', arguments: { item: 'b' } }))).toBe('a,b');
    expect(textOf(await one.client.callTool({ name: 'add', arguments: { item: 'c' } }))).toBe('a,b,c');
    expect(textOf(await two.client.callTool({ name: 'add', arguments: { item: 'y' } }))).toBe('x,y');
    expect(textOf(await one.client.callTool({ name: 'clear', arguments: {} }))).toBe('true');
    expect(textOf(await one.client.callTool({ name: 'clear', arguments: {} }))).toBe('false');

    const id = two.transport.sessionId!;
    expect(await instances[0].cluster.redis.exists(`${instances[0].cluster.prefix}st:${id}`)).toBe(1);
    await two.transport.terminateSession();
    expect(await instances[0].cluster.redis.exists(`${instances[0].cluster.prefix}st:${id}`)).toBe(0);
    await Promise.all([one.client.close(), two.client.close()]);
  });

  it('refuses values JSON cannot carry, saying where, as in memory, and stores what JSON drops as nothing', async () => {
    const { client } = await connectRoundRobin(instances.map((i) => i.url));
    const keep = async (which: string) => textOf(await client.callTool({ name: 'keep', arguments: { case: which } }));
    expect(await keep('plain')).toBe('kept: {"a":[1,"b"]}');
    expect(await keep('fn')).toBe('kept: undefined');
    expect(await keep('plain')).toBe('kept: {"a":[1,"b"]}');
    expect(await keep('symbol')).toBe('kept: undefined');
    expect(await keep('bigint')).toBe("refused (ConfigError): ctx.session.set('k') cannot store this value: value is a BigInt, which JSON cannot carry: return it as a string or a number.");
    expect(await keep('circular')).toMatch(/^refused \(ConfigError\): ctx\.session\.set\('k'\) cannot store this value: value\.self refers back to an object that contains it/);
    await client.close();
  });
});
