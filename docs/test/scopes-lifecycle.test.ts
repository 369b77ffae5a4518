/** The snippets of the Dependency injection (scopes) and Lifecycle pages, run as they are. */
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { CartTools, OrderTools } from '../snippets/dependency-injection/scopes';
import { createStatusApp, Pool } from '../snippets/lifecycle/lifecycle';
import { Container } from 'typedi';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('the scopes snippets', () => {
  it('serves request- and session-scoped classes', async () => {
    const app = await createApp({ name: 'shop', version: '1', tools: [OrderTools, CartTools] });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'list_orders', arguments: {} }))).toBe('SELECT * FROM orders for public');
    await client.callTool({ name: 'add', arguments: { item: 'tea' } });
    expect(textOf(await client.callTool({ name: 'add', arguments: { item: 'milk' } }))).toBe('tea, milk');
    const other = await createTestClient(app);
    expect(textOf(await other.callTool({ name: 'add', arguments: { item: 'jam' } }))).toBe('jam');
    await Promise.all([client.close(), other.close()]);
  });
});

describe('the lifecycle snippet', () => {
  it('connects the pool before serving and closes it on stop', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const app = await createStatusApp();
    const listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    expect(Container.get(Pool).connected).toBe(true);
    await listener.close();
    expect(Container.get(Pool).connected).toBe(false);
    expect(errors.mock.calls.map((c) => c[0])).toEqual(['starting', 'stopped']);
    errors.mockRestore();
  });
});
