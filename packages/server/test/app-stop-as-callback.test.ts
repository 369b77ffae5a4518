import 'reflect-metadata';
import { EventEmitter } from 'node:events';
import { ConfigError } from '@toolwright/core';
import { createApp } from '@toolwright/server';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * `app.stop` and `app.drain` passed as callbacks: jest hands a hook function that declares a
 * parameter a `done` callback (and then waits for it), and an event emitter hands a listener the
 * event's arguments (`process.once('SIGTERM', app.stop)`: the signal's name). Neither is a drain
 * time: only a number is, and it is range-checked.
 */
describe('app.stop and app.drain used as callbacks', () => {
  it('declare no parameter, so jest hands them no done callback (afterEach(app.stop))', async () => {
    const app = await createApp({ name: 'stop-callback', version: '1', tools: [], logger: silent });
    expect({ stop: app.stop.length, drain: app.drain.length }).toEqual({ stop: 0, drain: 0 });
  });

  it('runs the shutdown hooks when a signal listener hands the stop the signal name', async () => {
    let hooks = 0;
    const app = await createApp({ name: 'stop-callback', version: '1', tools: [], logger: silent, onShutdown: () => void hooks++ });
    await app.start();
    const emitter = new EventEmitter();
    let stopping: Promise<void> | undefined;
    emitter.once('SIGTERM', (...args: unknown[]) => (stopping = (app.stop as (...a: unknown[]) => Promise<void>)(...args)));
    emitter.emit('SIGTERM', 'SIGTERM');
    await stopping;
    expect(hooks).toBe(1);
  });

  it('still refuses a number that is no drain time, and the drain takes any other argument as its default', async () => {
    const app = await createApp({ name: 'stop-callback', version: '1', tools: [], logger: silent });
    await app.start();
    await expect(app.stop(-1)).rejects.toThrow(ConfigError);
    await expect(app.drain(1.5)).rejects.toThrow(/app\.drain\(timeoutMs\) must be a whole number/);
    await expect((app.drain as (x: unknown) => Promise<boolean>)('soon')).resolves.toBe(true);
    await app.stop();
  });
});
