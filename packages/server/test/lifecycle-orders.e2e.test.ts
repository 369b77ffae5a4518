/**
 * app.stop() before any start runs no hook. The lifecycle paths around it: stop then start at once, start then stop at once, stop after a failed start, restart
 * after stop, two HTTP listeners with a stop before either, and an app served without a start
 * (connect / test client) then stopped.
 */
import 'reflect-metadata';
import { OnShutdown, OnStart, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

function appWith(events: string[], failFirstStart = false) {
  let starts = 0;
  class Pool {
    @OnStart()
    open() {
      starts++;
      events.push('open');
      if (failFirstStart && starts === 1) throw new Error('database down');
    }

    @OnShutdown()
    close() {
      events.push('close');
    }

    @Tool({ description: 'Says ok.' })
    ok() {
      return 'ok';
    }
  }
  return createApp({ name: 'life', version: '1.0.0', tools: [Pool], logger: silent });
}

describe('lifecycle orders around a stop before any start', () => {
  it('stop then start in the same tick: the app ends started, the next stop closes', async () => {
    const events: string[] = [];
    const app = await appWith(events);
    await Promise.all([app.stop(), app.start()]);
    expect(events).toEqual(['open']);
    await app.stop();
    expect(events).toEqual(['open', 'close']);
  });

  it('start then stop in the same tick: the stop waits for the start and closes', async () => {
    const events: string[] = [];
    const app = await appWith(events);
    await Promise.all([app.start(), app.stop()]);
    expect(events).toEqual(['open', 'close']);
    await app.start();
    expect(events).toEqual(['open', 'close', 'open']);
    await app.stop();
    expect(events).toEqual(['open', 'close', 'open', 'close']);
  });

  it('a failed start closes what it opened once; a stop after it runs nothing; the next start runs again', async () => {
    const events: string[] = [];
    const app = await appWith(events, true);
    await expect(app.start()).rejects.toThrow(/database down/);
    expect(events).toEqual(['open', 'close']);
    await app.stop();
    expect(events).toEqual(['open', 'close']);
    await app.start();
    await app.stop();
    expect(events).toEqual(['open', 'close', 'open', 'close']);
  });

  it('two HTTP listeners after a stop before any start: one open, one close after the last', async () => {
    const events: string[] = [];
    const app = await appWith(events);
    await app.stop();
    const first = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const second = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    expect(events).toEqual(['open']);
    await first.close();
    expect(events).toEqual(['open']);
    await second.close();
    expect(events).toEqual(['open', 'close']);
    // Served again after its last listener closed.
    const third = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    await third.close();
    expect(events).toEqual(['open', 'close', 'open', 'close']);
  });

  it('an app served by the test client only (never started) runs no hook on stop (documented change)', async () => {
    const events: string[] = [];
    const app = await appWith(events);
    const client = await createTestClient(app);
    expect(await client.callTool({ name: 'ok', arguments: {} })).toMatchObject({ content: [{ type: 'text', text: 'ok' }] });
    await client.close();
    await app.stop();
    expect(events).toEqual([]);
  });
});
