import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { proxyServer } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * One proxy mounted into two parents, as a mounted app may be: it is stopped when the last
 * parent that serves it stops, not the first. The upstream is a Toolwright app over real HTTP
 * on 127.0.0.1; the SDK v2 client drives the parent that keeps serving.
 */
let release: () => void = () => undefined;
let started: () => void = () => undefined;
class Upstream {
  @Tool({ description: 'Echo a text.' })
  echo(@Param('text') text: string) {
    return text;
  }

  @Tool({ description: 'Answers once the test lets it.' })
  async slow() {
    started();
    await new Promise<void>((resolve) => (release = resolve));
    return 'done';
  }
}

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
let upstream: App;
let listener: HttpListener;
beforeAll(async () => {
  upstream = await createApp({ name: 'upstream', version: '1.0.0', tools: [Upstream], logger: silent });
  listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
});
afterAll(async () => listener.close());

it('keeps serving a parent when another parent of the same proxy stops, and stops with the last', async () => {
  const proxy = await proxyServer({ url: listener.url, name: 'up', logger: silent });
  const first = await createApp({ name: 'first', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }], logger: silent });
  const second = await createApp({ name: 'second', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }], logger: silent });
  const firstListener = await first.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
  const secondListener = await second.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
  const client = await createTestClient(second);
  try {
    const running = new Promise<void>((resolve) => (started = resolve));
    const call = client.callTool({ name: 'up_slow', arguments: {} }).catch((error: unknown) => error);
    await running;
    await firstListener.close();
    // The second parent still serves the proxy: the call under way and the proxy's session of its own stay.
    release();
    expect(await call).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
    expect(proxy.status.connected).toBe(true);
    expect(await client.callTool({ name: 'up_echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  } finally {
    release();
    await client.close();
    await secondListener.close();
  }
  // The last parent stopped: so did the proxy.
  await waitFor(() => !proxy.status.connected && proxy.status.sessions === 0);
});
