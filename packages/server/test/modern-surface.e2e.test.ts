import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { MODERN } from './fixtures/eras';
import { post } from './fixtures/httpHelpers';

/**
 * The 2026-07-28 surface over raw HTTP: resource updates on `subscriptions/listen`, and the
 * app's `cache` option on list, read and discover results.
 */
const { ErasTools } = require('./fixtures/eras-app.js') as { ErasTools: new () => unknown };

function modernPost(url: string, message: Record<string, unknown>) {
  const request = MODERN.request(message);
  return post(url, request, MODERN.headers(request));
}

/** The JSON-RPC messages of an SSE stream, as they arrive, until `until` holds for one or the time runs out. */
async function readStream(response: Response, until: (message: Record<string, unknown>) => boolean, ms = 3000): Promise<Record<string, unknown>[]> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const seen: Record<string, unknown>[] = [];
  let buffer = '';
  const deadline = Date.now() + ms;
  try {
    while (Date.now() < deadline) {
      const chunk = await Promise.race([reader.read(), new Promise<{ done: true }>((r) => setTimeout(() => r({ done: true }), deadline - Date.now()))]);
      if (chunk.done) break;
      buffer += decoder.decode((chunk as { value: Uint8Array }).value, { stream: true });
      for (let end = buffer.indexOf('\n\n'); end !== -1; end = buffer.indexOf('\n\n')) {
        const data = buffer.slice(0, end).split('\n').find((line) => line.startsWith('data: '));
        buffer = buffer.slice(end + 2);
        if (!data) continue;
        const message = JSON.parse(data.slice(6)) as Record<string, unknown>;
        seen.push(message);
        if (until(message)) return seen;
      }
    }
    return seen;
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

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
    await new Promise((r) => setTimeout(r, 100));
    app.notifyResourceUpdated('mem://config');
    const isUpdate = (m: Record<string, unknown>) => m.method === 'notifications/resources/updated';
    const got = await readStream(subscribed, isUpdate);
    expect(got.filter(isUpdate)).toEqual([expect.objectContaining({ params: expect.objectContaining({ uri: 'mem://config' }) })]);
    expect((await readStream(other, isUpdate, 500)).filter(isUpdate)).toEqual([]);
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
