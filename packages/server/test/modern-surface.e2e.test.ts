import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { modernPost } from './fixtures/modernPost';
import { sseMessages, type SseMessage as Message } from './fixtures/sseMessages';

/**
 * The 2026-07-28 surface over raw HTTP: resource updates on `subscriptions/listen`, and the
 * app's `cache` option on list, read and discover results.
 */
const { ErasTools } = require('./fixtures/eras-app.js') as { ErasTools: new () => unknown };

describe('2026-07-28 over HTTP: subscriptions/listen and cache hints', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({
      name: 'eras',
      version: '1.0.0',
      tools: [ErasTools as never],
      cache: { lists: { ttlMs: 1000, cacheScope: 'public' }, tools: { ttlMs: 5 }, discover: { ttlMs: 30_000, cacheScope: 'public' }, reads: { ttlMs: 250 } },
    });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it('sends a resource update to a listen stream subscribed to its URI, and not to one that is not', async () => {
    const subscribed = await modernPost(listener.url, { jsonrpc: '2.0', id: 'a', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['mem://config'] } } });
    const other = await modernPost(listener.url, { jsonrpc: '2.0', id: 'b', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['mem://notes/1'] } } });
    expect([subscribed.status, other.status]).toEqual([200, 200]);
    const [one, two] = [sseMessages(subscribed), sseMessages(other)];
    // Each stream first acknowledges its subscriptions: from then on, the server sends it updates.
    const acknowledged = (m: Message) => m.method === 'notifications/subscriptions/acknowledged';
    await Promise.all([one.until(acknowledged), two.until(acknowledged)]);
    app.notifyResourceUpdated('mem://config');
    const isUpdate = (m: Message) => m.method === 'notifications/resources/updated';
    const update = (uri: string) => expect.objectContaining({ params: expect.objectContaining({ uri }) });
    expect((await one.until(isUpdate)).filter(isUpdate)).toEqual([update('mem://config')]);
    // The other stream's own update comes after the one it must not get, had it been sent.
    app.notifyResourceUpdated('mem://notes/1');
    expect((await two.until(isUpdate)).filter(isUpdate)).toEqual([update('mem://notes/1')]);
    await Promise.all([one.cancel(), two.cancel()]);
  });

  it('puts the app cache option on results: a list override, the default for other lists, reads and discover', async () => {
    const result = async (method: string, params?: Record<string, unknown>) => {
      const response = await modernPost(listener.url, { jsonrpc: '2.0', id: 1, method, ...(params && { params }) });
      const text = await response.text();
      const data = text.split('\n').find((line) => line.startsWith('data: '));
      return (JSON.parse(data ? data.slice(6) : text) as { result: Record<string, unknown> }).result;
    };
    // `tools` gives only ttlMs: the scope still comes from `lists`.
    expect(await result('tools/list')).toMatchObject({ ttlMs: 5, cacheScope: 'public' });
    expect(await result('prompts/list')).toMatchObject({ ttlMs: 1000, cacheScope: 'public' });
    expect(await result('server/discover')).toMatchObject({ ttlMs: 30_000, cacheScope: 'public' });
    expect(await result('resources/read', { uri: 'mem://notes/1' })).toMatchObject({ ttlMs: 250 });
    // @Resource({ cache }) wins over the app's reads default.
    expect(await result('resources/read', { uri: 'mem://config' })).toMatchObject({ ttlMs: 5000, cacheScope: 'public' });
  });

  it('refuses an invalid cache hint at startup, saying which', async () => {
    await expect(createApp({ name: 'x', version: '1', tools: [ErasTools as never], cache: { lists: { ttlMs: -1 } } })).rejects.toThrow(/cache/);
  });
});
