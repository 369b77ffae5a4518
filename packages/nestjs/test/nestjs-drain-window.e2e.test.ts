import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import type { AbstractHttpAdapter } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { OnShutdown, Tool } from '@toolwright/core';
import { ToolwrightModule, ToolwrightServer } from '@toolwright/nestjs';
import { tasks } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';
import { signal, waitFor } from '../../server/test/fixtures/waitFor';
import { startNest } from './fixtures/startNest';

/**
 * `nest.close()` on a real Nest app on 127.0.0.1, on either platform: the drain of running calls
 * and the app's wait for its work in flight (a task's run, which outlives its request) share the
 * one `http.drainTimeoutMs`, as the node listener's do, not the default 10 s of a second window.
 */
function taskModule(): { TaskModule: new () => object; events: string[]; running: Promise<void> } {
  const events: string[] = [];
  const running = signal();
  const shutDown = signal();
  const silent = { debug() {}, info() {}, warn() {}, error() {} };
  @Injectable()
  class Reports {
    @Tool({ description: 'Builds a report, as a task, until the shutdown hooks have run.', task: 'required' })
    async build() {
      running.resolve();
      await shutDown.promise;
      events.push('run ended');
      return 'built';
    }

    @OnShutdown()
    close() {
      events.push('shutdown hook');
      shutDown.resolve();
    }
  }
  @Module({
    imports: [
      ToolwrightModule.forRoot({
        name: 'reports',
        version: '1.0.0',
        tools: [Reports],
        logger: silent,
        extensions: [tasks({ logger: silent })],
        http: { drainTimeoutMs: 100, requestLogLevel: 'silent' },
      }),
    ],
  })
  class TaskModule {}
  return { TaskModule, events, running: running.promise };
}

const PLATFORMS: [string, () => AbstractHttpAdapter | undefined][] = [
  ['Express', () => undefined],
  ['Fastify', () => new FastifyAdapter()],
];

describe('NestJS, the drain window of nest.close()', () => {
  it.each(PLATFORMS)('%s platform: a task run still going holds the shutdown hooks for what is left of http.drainTimeoutMs, not for 10 s', async (_platform, adapter) => {
    const { TaskModule, events, running } = taskModule();
    const served = await startNest(TaskModule, adapter());
    expect((await createTaskClient({ url: served.url }).call('build')).resultType).toBe('task');
    await running;
    expect(served.nest.get(ToolwrightServer).app.inFlight).toBe(1);
    const closed = served.nest.close();
    try {
      // The run waits for the shutdown hooks: they run once the 100 ms window has passed, or after 10 s with a second, default one.
      await waitFor(() => events.includes('shutdown hook'), 'the shutdown hooks to run within the 100 ms drain window', { timeoutMs: 5_000 });
    } finally {
      await closed;
    }
    await waitFor(() => events.includes('run ended'), 'the run to end');
    expect(events).toEqual(['shutdown hook', 'run ended']);
  });
});
