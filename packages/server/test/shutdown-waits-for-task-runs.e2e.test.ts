/**
 * A task's run outlives the request that started it: the listener's own drain does not wait for
 * it. When the app's last listener closes, the shutdown hooks still run only once the app's work
 * in flight (`app.inFlight`, the run included) has settled, or once the listener's drain timeout
 * has passed, whichever comes first: a run never sees its services closed under it. Both waits
 * share the listener's one drain window.
 */
import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Ctx, OnShutdown, OnStart, Tool, type ToolContext } from '@toolwright/core';
import { createApp, defineExtension, tasks, type App, type ExtensionApp } from '@toolwright/server';
import { serveHttp, type HttpListener } from '@toolwright/server/http';
import { createTaskClient } from '@toolwright/server/testing';
import { Service } from 'typedi';
import { StuckTools, stuckApp } from './fixtures/stuckApp';
import { signal, waitFor } from './fixtures/waitFor';

const silent = { debug() {}, info() {}, warn() {}, error() {} };

/** Something the test or the run waits for, and what sets it off. */
type Gate = { readonly promise: Promise<void>; readonly resolve: () => void };

interface Probe {
  events: string[];
  /** Lets the task's run finish. */
  gate: Gate;
  /** Resolves once the run waits at its gate. */
  waiting: Gate;
}

async function served(probe: Probe, drainTimeoutMs: number): Promise<{ app: App; listener: HttpListener }> {
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
      probe.events.push('shutdown hook');
    }
  }
  // The container builds Reports with the Pool the hooks open and close.
  @Service()
  class Reports {
    constructor(private readonly pool: Pool) {}

    @Tool({ description: 'Builds a report, as a task, with the pool.', task: 'required' })
    async build(@Ctx() ctx: ToolContext) {
      probe.waiting.resolve();
      await Promise.race([probe.gate.promise, new Promise((resolve) => ctx.signal.addEventListener('abort', resolve))]);
      probe.events.push(this.pool.open ? 'run used an open pool' : 'run used a closed pool');
      return 'built';
    }
  }
  // Stops before the tasks extension and so before the drain: the point where the listener has let go of the app.
  const marker = defineExtension({ id: 'com.example/marker', start: () => () => void probe.events.push('extensions stopping') });
  const app = await createApp({
    name: 'reports',
    version: '1.0.0',
    tools: [Reports],
    services: [Pool],
    logger: silent,
    extensions: [tasks({ logger: silent }), marker],
  });
  const listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', exitOnSignal: false, drainTimeoutMs, requestLogLevel: 'silent' });
  return { app, listener };
}

describe('shutdown hooks and task runs still going when the last listener closes', () => {
  it('run after the run settles', async () => {
    const probe: Probe = { events: [], gate: signal<void>(), waiting: signal<void>() };
    const { app, listener } = await served(probe, 60_000);
    const handle = await createTaskClient({ url: listener.url }).call('build');
    expect(handle.resultType).toBe('task');
    await probe.waiting.promise;
    expect(app.inFlight).toBe(1);
    const closing = listener.close();
    await waitFor(() => probe.events.includes('extensions stopping'), 'the listener to let go of the app');
    // A turn of the event loop: a shutdown that did not wait for the run has run its hooks by now.
    await new Promise((resolve) => setImmediate(resolve));
    expect(probe.events).not.toContain('shutdown hook');
    probe.gate.resolve();
    await closing;
    expect(probe.events).toEqual(['extensions stopping', 'run used an open pool', 'shutdown hook']);
    expect(app.inFlight).toBe(0);
  });

  it('run once the drain timeout passed, when the run does not settle', async () => {
    const probe: Probe = { events: [], gate: signal<void>(), waiting: signal<void>() };
    const { app, listener } = await served(probe, 50);
    await createTaskClient({ url: listener.url }).call('build');
    await probe.waiting.promise;
    await listener.close();
    expect(probe.events).toEqual(['extensions stopping', 'shutdown hook']);
    expect(app.inFlight).toBe(1);
    probe.gate.resolve();
    await waitFor(() => app.inFlight === 0, 'the run to end');
    expect(probe.events).toEqual(['extensions stopping', 'shutdown hook', 'run used a closed pool']);
  });
});

describe('the wait for the work in flight shares the drain time of the listener that closes', () => {
  it('gets what is left of it: nothing once the listener used it all on a call that never settled', async () => {
    // `handed`: what the listener hands the app when it lets go, the drain time left for the work in flight.
    const { app, recording, handed } = await stuckApp();
    const listener = await serveHttp(recording, { transport: 'http', port: 0, host: '127.0.0.1', exitOnSignal: false, drainTimeoutMs: 100, requestLogLevel: 'silent' });
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
    const call = client.callTool({ name: 'hang', arguments: {} }).catch((error: unknown) => error);
    await waitFor(() => app.inFlight === 1, 'the call to run');
    await listener.close();
    await call;
    await client.close();
    // The listener waited its 100 ms for the call: a second window of 100 ms would be handed on otherwise.
    expect(handed).toEqual([0]);
  });
});

describe("a mounted app's wait for its own work in flight, when its parent stops", () => {
  /** A parent mounting `child`, whose extension starts a run of `hang` outside any request (as a tasks worker does): it never settles. */
  async function parentWithStuckChild(name: string): Promise<{ parent: App; child: App; shutdown: string[] }> {
    const shutdown: string[] = [];
    let childApp: ExtensionApp | undefined;
    const runner = defineExtension({ id: 'com.example/child-runner', start: (a) => void (childApp = a) });
    const child = await createApp({ name: `${name}-child`, version: '1', tools: [StuckTools], logger: silent, extensions: [runner], onShutdown: () => void shutdown.push('child') });
    class Ping {
      @Tool({ description: 'Answers pong.' })
      ping() {
        return 'pong';
      }
    }
    const parent = await createApp({ name, version: '1', tools: [Ping], logger: silent, mount: [{ app: child, namespace: 'c' }], onShutdown: () => void shutdown.push('parent') });
    await parent.start();
    void childApp!.callTool({ name: 'hang' }, undefined).catch(() => undefined);
    await waitFor(() => child.inFlight === 1, 'the child run');
    return { parent, child, shutdown };
  }

  /** Lets every callback already due run (the lifecycle's steps take no I/O), with the timers faked. */
  const settle = () => new Promise((resolve) => setImmediate(resolve));

  afterEach(() => jest.useRealTimers());

  it('is none when the parent is stopped by hand without a drain time: the stop does not wait', async () => {
    const { parent, child, shutdown } = await parentWithStuckChild('stop-by-hand');
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    let stopped = false;
    void parent.stop().then(() => (stopped = true));
    await settle();
    expect({ stopped, shutdown, childInFlight: child.inFlight }).toEqual({ stopped: true, shutdown: ['parent', 'child'], childInFlight: 1 });
  });

  it("is what is left of the parent's drain time, not a window of its own", async () => {
    const { parent, shutdown } = await parentWithStuckChild('stop-with-drain');
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    let stopped = false;
    void parent.stop(100).then(() => (stopped = true));
    await settle();
    // The parent's own wait (it has no work in flight) ended at once; the child waits the rest of the 100 ms.
    await jest.advanceTimersByTimeAsync(99);
    expect({ stopped, shutdown }).toEqual({ stopped: false, shutdown: ['parent'] });
    await jest.advanceTimersByTimeAsync(1);
    await settle();
    expect({ stopped, shutdown }).toEqual({ stopped: true, shutdown: ['parent', 'child'] });
  });
});
