import { PassThrough } from 'node:stream';
import { OnShutdown, OnStart, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Service } from 'typedi';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe('a listener that opens while the last other one closes', () => {
  @Service()
  class Pool {
    open = false;
    @OnStart()
    connect() {
      this.open = true;
    }
    @OnShutdown()
    close() {
      this.open = false;
    }
  }

  @Service()
  class PoolTools {
    constructor(private readonly pool: Pool) {}
    @Tool({ description: 'Says whether the pool is open.' })
    state() {
      return this.pool.open ? 'open' : 'closed';
    }
  }

  it('is served with what the start hooks opened, never with what the shutdown hooks closed', async () => {
    const events: string[] = [];
    const app = await createApp({
      name: 'handoff',
      version: '1.0.0',
      tools: [PoolTools],
      services: [Pool],
      onStart: () => void events.push('start'),
      onShutdown: () => void events.push('stop'),
    });
    // A serves stdio on streams of its own; B starts listening on HTTP while A closes.
    const a = await app.listen({ transport: 'stdio', stdin: new PassThrough(), stdout: new PassThrough(), exitOnClose: false });
    const opening = app.listen({ transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false });
    const closing = a.close();
    const b = await opening;
    await closing;
    // B held the app before A let go: the app never stopped.
    expect(events).toEqual(['start']);
    const client = new Client({ name: 'test', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(b.url)));
      expect(textOf(await client.callTool({ name: 'state', arguments: {} }))).toBe('open');
    } finally {
      await client.close();
      await b.close();
    }
    expect(events).toEqual(['start', 'stop']);
  });
});
