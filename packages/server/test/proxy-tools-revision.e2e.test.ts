import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { proxyServer } from '@toolwright/server/proxy';
import { mountSourceOf } from '../src/compose/MountSource';
import { waitFor } from './fixtures/waitFor';

/**
 * A proxy's catalog counts every change of its tools in `toolsRevision` (what is derived from
 * the tools is kept until it moves, see `Catalog.toolsRevision`), the tools it serves again
 * after the upstream said its list changed included: served quietly (the proxy announces the
 * change once, itself), they are a change all the same. The upstream is a Toolwright app over
 * HTTP on 127.0.0.1.
 */
class Reports {
  @Tool({ description: 'Builds a report.' })
  build() {
    return 'built';
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe("a proxy's tools revision", () => {
  it('moves when the upstream serves a tool again after none', async () => {
    const upstream = await createApp({ name: 'upstream', version: '1', tools: [Reports], logger: silent, listChangedDebounceMs: 1 });
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false });
    const proxy = await proxyServer({ url: listener.url, name: 'up', logger: silent });
    try {
      const { catalog } = mountSourceOf(proxy)!;
      expect(catalog.tool('build')).toBeDefined();
      upstream.tools.disable('build');
      await waitFor(() => catalog.tool('build') === undefined, 'the proxy to serve no tool');
      const before = catalog.toolsRevision;
      upstream.tools.enable('build');
      await waitFor(() => catalog.tool('build') !== undefined, 'the proxy to serve the tool again');
      expect(catalog.toolsRevision).toBeGreaterThan(before);
    } finally {
      await proxy.stop();
      await listener.close();
    }
  });
});
