/**
 * A run an extension starts outside any request (`callTool` of its started app: the tasks
 * worker's runs) counts in `app.inFlight` from the moment it is asked for, while the app's server
 * for it is still connecting, until its answer: `app.drain()` (and so the shutdown when the last
 * listener closes) does not find the app idle while a run is about to use its services. The run
 * counts once.
 */
import 'reflect-metadata';
import { Tool, UseGuards } from '@toolwright/core';
import { createApp, defineExtension, tasks, type App, type ExtensionApp } from '@toolwright/server';
import { signal } from './fixtures/waitFor';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('a run an extension starts outside any request, and app.inFlight', () => {
  it.each([
    ['an app whose extensions wrap no tool call', false],
    ['an app with an extension around every tool call', true],
  ])('%s: counts the run from its start until its answer, once', async (_name, wrapping) => {
    const gate = signal();
    const running = signal();
    class Jobs {
      @Tool({ description: 'Waits for the test.' })
      async job() {
        running.resolve();
        await gate.promise;
        return 'done';
      }
    }
    let started: ExtensionApp | undefined;
    const runner = defineExtension({
      id: 'com.example/runner',
      start: (app) => {
        started = app;
      },
      ...(wrapping && { aroundToolCall: (_call: unknown, _ctx: unknown, next: () => Promise<Record<string, unknown>>) => next() }),
    });
    const app: App = await createApp({ name: 'jobs', version: '1', tools: [Jobs], logger: silent, extensions: [runner] });
    await app.start();
    try {
      const answer = started!.callTool({ name: 'job' }, undefined);
      // Asked for, and its server not connected yet: the run already counts, so a drain waits for it.
      expect(app.inFlight).toBe(1);
      let drained: boolean | undefined;
      const drain = app.drain(60_000).then((done) => (drained = done));
      await running.promise;
      expect(app.inFlight).toBe(1);
      expect(drained).toBeUndefined();
      gate.resolve();
      expect(await answer).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      expect(await drain).toBe(true);
      expect(app.inFlight).toBe(0);
    } finally {
      await app.stop();
    }
  });

  it('counts a run of a guarded task tool once while its guards decide', async () => {
    const guardGate = signal();
    const guarding = signal();
    const slowGuard = async () => {
      guarding.resolve();
      await guardGate.promise;
      return true;
    };
    class Jobs {
      @UseGuards(slowGuard)
      @Tool({ description: 'A guarded task tool.', task: 'optional' })
      job() {
        return 'done';
      }
    }
    let started: ExtensionApp | undefined;
    const runner = defineExtension({ id: 'com.example/runner', start: (a) => void (started = a) });
    const app: App = await createApp({ name: 'jobs', version: '1', tools: [Jobs], logger: silent, extensions: [runner, tasks({ logger: silent })] });
    await app.start();
    try {
      const answer = started!.callTool({ name: 'job' }, undefined);
      await guarding.promise;
      expect(app.inFlight).toBe(1);
      guardGate.resolve();
      expect(await answer).toMatchObject({ content: [{ type: 'text', text: 'done' }] });
      expect(app.inFlight).toBe(0);
    } finally {
      guardGate.resolve();
      await app.stop();
    }
  });
});
