import { OnShutdown, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Service } from 'typedi';
import { fastPathsWanted } from '../src/lanes/FastPaths';
import { fastPathsOf } from '../src/lanes/fastPathsOf';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('an app with two listeners', () => {
  const events: string[] = [];

  @Service()
  class Store {
    open = true;
    @OnShutdown()
    close() {
      this.open = false;
      events.push('store closed');
    }
  }

  @Service()
  class StoreTools {
    constructor(private readonly store: Store) {}
    @Tool({ description: 'Reads the store.' })
    read() {
      if (!this.store.open) throw new Error('the store is closed');
      return 'read';
    }
  }

  it('runs its shutdown hooks once, after the last listener drained, not when the first closes', async () => {
    const app = await createApp({ name: 'two', version: '1.0.0', tools: [StoreTools], services: [Store], onShutdown: () => void events.push('app shutdown') });
    const first = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const second = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    await first.close();
    expect(events).toEqual([]);
    const client = new Client({ name: 'test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(second.url)));
    expect(textOf(await client.callTool({ name: 'read', arguments: {} }))).toBe('read');
    await client.close();
    await second.close();
    expect(events).toEqual(['store closed', 'app shutdown']);
    await first.close();
    expect(events).toEqual(['store closed', 'app shutdown']);
  });
});

describe('the fast-path switch', () => {
  it('is on by default, off with fastPaths: false, and off with TOOLWRIGHT_FAST_PATHS=off unless the option says otherwise', async () => {
    expect(fastPathsWanted(undefined, {})).toBe(true);
    expect(fastPathsWanted(false, {})).toBe(false);
    for (const off of ['off', '0', 'false', ' OFF ']) expect(fastPathsWanted(undefined, { TOOLWRIGHT_FAST_PATHS: off })).toBe(false);
    expect(fastPathsWanted(undefined, { TOOLWRIGHT_FAST_PATHS: 'on' })).toBe(true);
    expect(fastPathsWanted(true, { TOOLWRIGHT_FAST_PATHS: 'off' })).toBe(true);
  });

  it('installs the fast paths in createApp, or none at all', async () => {
    class Tools {
      @Tool({ description: 'Says hi.' })
      hi() {
        return 'hi';
      }
    }
    expect(fastPathsOf(await createApp({ name: 'on', version: '1.0.0', tools: [Tools], fastPaths: true }))).toBeDefined();
    expect(fastPathsOf(await createApp({ name: 'off', version: '1.0.0', tools: [Tools], fastPaths: false }))).toBeUndefined();
  });
});
