import { PassThrough } from 'node:stream';
import { createApp } from '@toolwright/server';
import { definePool, poolStateAt } from './fixtures/definePool';

describe('a listener that opens while the last other one closes', () => {
  const { Pool, PoolTools } = definePool();

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
    try {
      expect(await poolStateAt(b.url)).toBe('open');
    } finally {
      await b.close();
    }
    expect(events).toEqual(['start', 'stop']);
  });
});
