/**
 * `app.stop(drainTimeoutMs)` stops as a closing listener does: the extensions stop first (a tasks
 * worker takes no more tasks), then the stop waits up to that long for the work in flight, then
 * the shutdown hooks run. A drain time that is not a whole number of milliseconds below 2^31
 * (a longer timer fires after 1 ms) is refused, in `app.stop`, `app.drain` and a stdio listener.
 */
import 'reflect-metadata';
import { PassThrough } from 'node:stream';
import { ConfigError, Tool } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { signal, waitFor } from './fixtures/waitFor';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('app.stop(drainTimeoutMs) of an app whose tasks worker runs a queued task', () => {
  it('takes no more queued tasks, waits for the run, then runs the shutdown hooks', async () => {
    const gate = signal();
    const events: string[] = [];
    let runs = 0;
    class Reports {
      @Tool({ description: 'Builds a report, as a queued task.', task: 'required' })
      async build() {
        runs++;
        await gate.promise;
        events.push('run ended');
        return 'built';
      }
    }
    const store = new MemoryTaskStore();
    const app = await createApp({
      name: 'stop-with-drain',
      version: '1',
      tools: [Reports],
      logger: silent,
      onShutdown: () => void events.push('shutdown hook'),
      extensions: [tasks({ store, logger: silent, queue: true, worker: { concurrency: 1, pollMs: 5 } })],
    });
    await app.start();
    const client = createTaskClient(app);
    await client.call('build');
    const second = await client.call('build');
    if (second.resultType !== 'task') throw new TypeError('expected a task handle');
    await waitFor(() => runs === 1, 'the first run');
    const stopping = app.stop(60_000);
    gate.resolve();
    await stopping;
    expect({ runs, events }).toEqual({ runs: 1, events: ['run ended', 'shutdown hook'] });
    expect(await store.get(second.task.taskId)).toMatchObject({ status: 'working', queued: true });
  });
});

describe('a drain time out of range', () => {
  const app = () => createApp({ name: 'drain-range', version: '1', tools: [], logger: silent });

  it.each([2 ** 31, -1, 1.5, Number.NaN])('%s: app.stop and app.drain refuse it, naming the call', async (ms) => {
    const served = await app();
    await served.start();
    await expect(served.drain(ms)).rejects.toThrow(
      new ConfigError(`Toolwright: app.drain(timeoutMs) must be a whole number of milliseconds from 0 to 2147483647, got ${ms}. Give a number such as 10000, or leave it out for 10000 ms.`),
    );
    await expect(served.stop(ms)).rejects.toThrow(ConfigError);
    await expect(served.stop(ms)).rejects.toThrow(/app\.stop\(drainTimeoutMs\) must be a whole number of milliseconds/);
    await served.stop();
  });

  it('a stdio listener refuses it before the start hooks run', async () => {
    const started: string[] = [];
    const served = await createApp({ name: 'drain-range', version: '1', tools: [], logger: silent, onStart: () => void started.push('onStart') });
    await expect(served.listen({ transport: 'stdio', stdin: new PassThrough(), stdout: new PassThrough(), drainTimeoutMs: 2 ** 31 })).rejects.toThrow(
      /listen\(\{ transport: 'stdio', drainTimeoutMs \}\) must be a whole number of milliseconds from 0 to 2147483647, got 2147483648/,
    );
    expect(started).toEqual([]);
  });
});
