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
});
