import { OnStart } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { Service } from 'typedi';
import { definePool, poolStateAt } from './fixtures/definePool';

describe('a start retried after a start hook failed', () => {
  const events: string[] = [];
  let dbTries = 0;
  beforeEach(() => {
    events.length = 0;
    dbTries = 0;
  });

  const { Pool, PoolTools } = definePool(events);

  @Service()
  class Db {
    @OnStart()
    connect() {
      // The database is down at first, up on the next try.
      if (++dbTries === 1) throw new Error('database unreachable');
      events.push('db open');
    }
  }

  it('closes what the failed start opened, then runs every start hook again', async () => {
    const app = await createApp({ name: 'retry', version: '1.0.0', tools: [PoolTools], services: [Pool, Db] });
    const options = { transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false } as const;
    await expect(app.listen(options)).rejects.toThrow('Toolwright: the start hook Db.connect failed, so the server did not start: database unreachable');
    // The pool the failed start opened is closed, not left open behind the failure.
    expect(events).toEqual(['pool open', 'pool closed']);

    const listener = await app.listen(options);
    expect(events).toEqual(['pool open', 'pool closed', 'pool open', 'db open']);
    try {
      expect(await poolStateAt(listener.url)).toBe('open');
    } finally {
      await listener.close();
    }
    // The shutdown hooks ran once more, for the start that succeeded; never twice for the failed one.
    expect(events).toEqual(['pool open', 'pool closed', 'pool open', 'db open', 'pool closed']);
  });

  it('app.start() called again runs the start hooks again, after closing what the failed one opened', async () => {
    const app = await createApp({ name: 'retry-start', version: '1.0.0', tools: [PoolTools], services: [Pool, Db] });
    await expect(app.start()).rejects.toThrow('Toolwright: the start hook Db.connect failed, so the server did not start: database unreachable');
    expect(events).toEqual(['pool open', 'pool closed']);
    await app.start();
    expect(events).toEqual(['pool open', 'pool closed', 'pool open', 'db open']);
    // Started now: a further start does nothing, and one stop runs the shutdown hooks once.
    await app.start();
    await app.stop();
    await app.stop();
    expect(events).toEqual(['pool open', 'pool closed', 'pool open', 'db open', 'pool closed']);
  });
});
