import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { connectClient, textOf } from './fixtures/httpHelpers';

class Counter {
  @Tool({ description: 'Counts calls in this session.' })
  async count(@Param('by', { integer: true }) by: number, @Ctx() ctx: ToolContext) {
    if (!ctx.session) return 'no session';
    const n = ((await ctx.session.get<number>('n')) ?? 0) + by;
    await ctx.session.set('n', n);
    return String(n);
  }
}

describe('ctx.session in memory (the default)', () => {
  it('keeps values per connection, and is undefined on stateless HTTP', async () => {
    const app = await createApp({ name: 'state', version: '1', tools: [Counter] });
    const [a, b] = [await createTestClient(app), await createTestClient(app)];
    expect(textOf(await a.callTool({ name: 'count', arguments: { by: 1 } }))).toBe('1');
    expect(textOf(await a.callTool({ name: 'count', arguments: { by: 2 } }))).toBe('3');
    expect(textOf(await b.callTool({ name: 'count', arguments: { by: 5 } }))).toBe('5');
    await Promise.all([a.close(), b.close()]);

    const stateful = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    const { client } = await connectClient(stateful.url);
    await client.callTool({ name: 'count', arguments: { by: 1 } });
    expect(textOf(await client.callTool({ name: 'count', arguments: { by: 1 } }))).toBe('2');
    await client.close();
    await stateful.close();

    const stateless = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false, stateless: true });
    const { client: once } = await connectClient(stateless.url);
    expect(textOf(await once.callTool({ name: 'count', arguments: { by: 1 } }))).toBe('no session');
    await once.close();
    await stateless.close();
  });
});
