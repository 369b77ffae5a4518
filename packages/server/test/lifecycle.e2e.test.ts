import { Ctx, OnShutdown, OnStart, Param, Prompt, Resource, Tool, type ToolContext } from '@toolwright/core';
import { createApp, defineExtension } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Service } from 'typedi';
import { waitFor } from './fixtures/waitFor';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('lifecycle hooks', () => {
  const events: string[] = [];

  @Service()
  class Pool {
    open = false;
    @OnStart()
    async connect() {
      await sleep(20);
      this.open = true;
      events.push('pool open');
    }
    @OnShutdown()
    close() {
      this.open = false;
      events.push('pool closed');
    }
  }

  @Service()
  class PoolTools {
    constructor(private readonly pool: Pool) {}
    @Tool({ description: 'Works for a while.' })
    async work(@Param('ms') ms: number) {
      events.push(`work starts, pool ${this.pool.open ? 'open' : 'closed'}`);
      await sleep(ms);
      events.push('work done');
      return `pool ${this.pool.open ? 'open' : 'closed'}`;
    }
  }

  it('awaits start hooks before serving and runs shutdown hooks after running calls drain (HTTP)', async () => {
    events.length = 0;
    const app = await createApp({
      name: 'pool',
      version: '1',
      tools: [PoolTools],
      services: [Pool],
      onStart: () => void events.push('app start'),
      onShutdown: () => void events.push('app shutdown'),
    });
    const listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    expect(events).toEqual(['app start', 'pool open']);
    const client = new Client({ name: 'c', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${listener.port}/mcp`)));
    const running = client.callTool({ name: 'work', arguments: { ms: 200 } });
    await waitFor(() => events.includes('work starts, pool open'), 'the call to run');
    await listener.close();
    expect(textOf(await running)).toBe('pool open');
    expect(events).toEqual(['app start', 'pool open', 'work starts, pool open', 'work done', 'pool closed', 'app shutdown']);
    // A start after a completed stop runs the start hooks again (another listener, a test's next
    // client: served with what they open); a second start while started, or stop while stopped, does nothing.
    events.length = 0;
    await app.start();
    await app.start();
    expect(events).toEqual(['app start', 'pool open']);
    await app.stop();
    await app.stop();
    expect(events).toEqual(['app start', 'pool open', 'pool closed', 'app shutdown']);
  });
});

describe('one pipeline: resource reads and prompts get timeouts and in-flight tracking like tools', () => {
  class Slow {
    @Resource('slow://{ms}')
    async read(@Param('ms', { integer: true }) ms: number, @Ctx() ctx: ToolContext) {
      await sleep(ms);
      return ctx.signal.aborted ? 'aborted' : 'read';
    }

    @Prompt({ description: 'Slow prompt.' })
    async slowPrompt(@Param('ms') ms: string) {
      await sleep(Number(ms));
      return 'prompt';
    }
  }

  it('answers a read or prompt that outlives the app timeout with a JSON-RPC error, and counts them while they run', async () => {
    // Seconds apart, not milliseconds: a loaded machine (CI runs two files at once) delays timers by tens of ms.
    const app = await createApp({ name: 'slow', version: '1', tools: [Slow], timeoutMs: 1000 });
    const client = await createTestClient(app);
    expect((await client.readResource({ uri: 'slow://10' })).contents[0]).toMatchObject({ text: 'read' });
    await expect(client.readResource({ uri: 'slow://5000' })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining("Reading resource 'slow://5000' timed out after 1000 ms") });
    await expect(client.getPrompt({ name: 'slow_prompt', arguments: { ms: '5000' } })).rejects.toMatchObject({ code: -32603, message: expect.stringContaining('timed out after 1000 ms') });

    const reading = client.readResource({ uri: 'slow://300' });
    const prompting = client.getPrompt({ name: 'slow_prompt', arguments: { ms: '300' } });
    await waitFor(() => app.inFlight === 2, 'both to be in flight', { detail: () => `${app.inFlight} in flight` });
    expect(await app.drain(5000)).toBe(true);
    await Promise.all([reading, prompting]);
    expect(app.inFlight).toBe(0);
    await client.close();
  });
});

describe('what starts around the hooks: mounted apps before, extensions after', () => {
  it("an extension starts after every start hook (its worker may use what they open) and stops before the shutdown hooks; a mounted app's hooks run first and stop last", async () => {
    const events: string[] = [];
    @Service()
    class Db {
      @OnStart()
      open() {
        events.push('front @OnStart');
      }
      @OnShutdown()
      close() {
        events.push('front @OnShutdown');
      }
    }
    class Inner {
      @Tool({ description: 'Inner.' })
      inner() {
        return 'inner';
      }
    }
    const worker = defineExtension({
      id: 'com.example/worker',
      start() {
        events.push('extension start');
        return () => void events.push('extension stop');
      },
    });
    const inner = await createApp({ name: 'inner', version: '1', tools: [Inner], onStart: () => void events.push('inner onStart'), onShutdown: () => void events.push('inner onShutdown') });
    const front = await createApp({
      name: 'front',
      version: '1',
      tools: [],
      services: [Db],
      mount: [{ app: inner, namespace: 'in' }],
      extensions: [worker],
      onStart: () => void events.push('front onStart'),
      onShutdown: () => void events.push('front onShutdown'),
    });
    await front.start();
    await front.stop();
    expect(events).toEqual(['inner onStart', 'front onStart', 'front @OnStart', 'extension start', 'extension stop', 'front @OnShutdown', 'front onShutdown', 'inner onShutdown']);
  });

  it("a failing extension or mounted app is named as such, not as the app's onStart", async () => {
    const failing = defineExtension({
      id: 'com.example/failing',
      start() {
        throw new Error('queue unreachable');
      },
    });
    const withExtension = await createApp({ name: 'a', version: '1', tools: [], extensions: [failing] });
    await expect(withExtension.start()).rejects.toMatchObject({ kind: 'startup', message: 'Toolwright: an extension failed, so the server did not start: queue unreachable' });

    const inner = await createApp({
      name: 'inner',
      version: '1',
      tools: [],
      onStart: () => {
        throw new Error('database unreachable');
      },
    });
    const front = await createApp({ name: 'front', version: '1', tools: [], mount: [{ app: inner, namespace: 'in' }] });
    await expect(front.start()).rejects.toMatchObject({ kind: 'startup', message: 'Toolwright: the start hook onStart failed, so the server did not start: database unreachable' });
  });
});
