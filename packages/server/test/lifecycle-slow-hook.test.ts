import { Tool, type ToolLogger } from '@toolwright/core';
import { createApp, defineExtension, type ExtensionApp } from '@toolwright/server';
import { Service } from 'typedi';

describe('a start or shutdown hook that does not settle', () => {
  @Service()
  class Tools {
    @Tool({ description: 'Answers pong.' })
    ping() {
      return 'pong';
    }
  }

  const recordingLogger = (warnings: string[]): ToolLogger => ({
    debug: () => undefined,
    info: () => undefined,
    warn: (message) => void warnings.push(message),
    error: () => undefined,
  });

  afterEach(() => jest.useRealTimers());

  it('is named once in the app log after 10 s, at start and at stop', async () => {
    const warnings: string[] = [];
    let connected!: () => void;
    let closed!: () => void;
    const app = await createApp({
      name: 'slow',
      version: '1.0.0',
      tools: [Tools],
      logger: recordingLogger(warnings),
      onStart: () => new Promise<void>((resolve) => (connected = resolve)),
      onShutdown: () => new Promise<void>((resolve) => (closed = resolve)),
    });
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const starting = app.start();
    // A stop asked meanwhile waits for the start: the log says what it waits for.
    const stopping = app.stop();
    await jest.advanceTimersByTimeAsync(9_999);
    expect(warnings).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(warnings).toEqual(["the start hook onStart is still running after 10 s: the server's start waits for it. Make it settle (give what it awaits a timeout)."]);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(warnings).toHaveLength(1);

    connected();
    await starting;
    await jest.advanceTimersByTimeAsync(10_000);
    expect(warnings).toEqual([
      "the start hook onStart is still running after 10 s: the server's start waits for it. Make it settle (give what it awaits a timeout).",
      "the shutdown hook onShutdown is still running after 10 s: the server's stop waits for it. Make it settle (give what it awaits a timeout).",
    ]);
    closed();
    await stopping;
    // Each step clears its timer once it settles: none is left behind.
    expect(jest.getTimerCount()).toBe(0);
  });

  it("goes on when the app's logger throws, from the timer and from a failing shutdown hook", async () => {
    const throwing: ToolLogger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => {
        throw new Error('log sink down');
      },
      error: () => {
        throw new Error('log sink down');
      },
    };
    let connected!: () => void;
    const events: string[] = [];
    const app = await createApp({
      name: 'slow',
      version: '1.0.0',
      tools: [Tools],
      logger: throwing,
      onStart: () => new Promise<void>((resolve) => (connected = resolve)),
      onShutdown: () => {
        events.push('onShutdown');
        throw new Error('disk full');
      },
    });
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    const starting = app.start();
    // The timer's warning throws inside the logger: no uncaught exception (jest would fail the test).
    await jest.advanceTimersByTimeAsync(10_000);
    connected();
    await starting;
    await expect(app.stop()).resolves.toBeUndefined();
    expect(events).toEqual(['onShutdown']);
  });

  it('leaves out the wait for the work in flight, which has its own timeout, however long the drain time', async () => {
    const warnings: string[] = [];
    class Stuck {
      @Tool({ description: 'Never settles.' })
      async hang() {
        await new Promise(() => undefined);
      }
    }
    let started: ExtensionApp | undefined;
    const runner = defineExtension({ id: 'com.example/runner', start: (a) => void (started = a) });
    const app = await createApp({ name: 'slow-drain', version: '1.0.0', tools: [Stuck], logger: recordingLogger(warnings), extensions: [runner] });
    jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
    await app.start();
    void started!.callTool({ name: 'hang' }, undefined).catch(() => undefined);
    const stopping = app.stop(15_000);
    await jest.advanceTimersByTimeAsync(15_000);
    await stopping;
    expect(warnings).toEqual([]);
  });
});
