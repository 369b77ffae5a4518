import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { proxyServer } from '@toolwright/server/proxy';
import { mountSourceOf } from '../src/compose/MountSource';
import { waitFor } from './fixtures/waitFor';

/**
 * A 2026-07-28 upstream tells of its list changes on the `subscriptions/listen` stream the
 * proxy keeps open: a change made while no stream is open (before the first one, or while the
 * proxy opens one again) reaches none. So each stream the proxy opens is followed by a listing
 * of what it follows. Here the upstream (a Toolwright app over HTTP on 127.0.0.1) stops
 * listening, changes its tools while it is down, and listens again on the same port.
 */
class Reports {
  @Tool({ description: 'Builds a report.' })
  build() {
    return 'built';
  }
}

class Archive {
  @Tool({ description: 'Archives a report.' })
  archive() {
    return 'archived';
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

it("a proxy lists its upstream's tools again once its stream is open again, and serves what changed while none was", async () => {
  const upstream = await createApp({ name: 'upstream', version: '1', tools: [Reports, Archive], logger: silent, listChangedDebounceMs: 1 });
  const options = { transport: 'http', host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false } as const;
  let listener = await upstream.listen({ ...options, port: 0 });
  const port = Number(new URL(listener.url).port);
  const proxy = await proxyServer({ url: listener.url, name: 'up', logger: silent });
  try {
    const { catalog } = mountSourceOf(proxy)!;
    expect(catalog.tool('build')).toBeDefined();
    await listener.close();
    // No stream can be open now: this change is told to nobody.
    upstream.tools.disable('build');
    listener = await upstream.listen({ ...options, port });
    await waitFor(() => catalog.tool('build') === undefined, 'the proxy to stop serving the tool disabled while its stream was down', { timeoutMs: 20_000 });
    expect(catalog.tool('archive')).toBeDefined();
  } finally {
    await proxy.stop();
    await listener.close();
  }
}, 30_000);
