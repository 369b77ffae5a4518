import 'reflect-metadata';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { OnShutdown, OnStart, Tool } from '@toolwright/core';
import { createApp, defineExtension, skills, tasks, TASKS_EXTENSION_ID, type App, type StoredTask } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { Service } from 'typedi';
import { CountingTaskStore } from './fixtures/CountingTaskStore';
import { modernRequest } from './fixtures/modernRequest';
import { waitFor } from './fixtures/waitFor';

/**
 * An app served again after its last listener closed starts again: a test file builds the app
 * once and connects a client per test, and each client's close stops the app (its shutdown
 * hooks close what its start hooks opened). The next test's client must be served with it open.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

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
  }
}

@Service()
class PoolTools {
  constructor(private readonly pool: Pool) {}
  @Tool({ description: 'Says whether the pool is open.' })
  state() {
    return this.pool.open ? 'open' : 'closed';
  }
}

/** An app whose pool its hooks open and close, with a mounted app that has its own pool, and an extension; `events` records their starts and stops. */
async function pooledApp(events: string[]): Promise<App> {
  const inner = await createApp({
    name: 'inner',
    version: '1',
    tools: [PoolTools],
    services: [Pool],
    onStart: () => void events.push('inner start'),
    onShutdown: () => void events.push('inner stop'),
  });
  const worker = defineExtension({
    id: 'com.example/worker',
    start() {
      events.push('extension start');
      return () => void events.push('extension stop');
    },
  });
  return createApp({
    name: 'front',
    version: '1',
    tools: [PoolTools],
    services: [Pool],
    mount: [{ app: inner, namespace: 'inner' }],
    extensions: [worker],
    onStart: () => void events.push('front start'),
    onShutdown: () => void events.push('front stop'),
  });
}

const oneRun = ['inner start', 'front start', 'extension start', 'extension stop', 'front stop', 'inner stop'];

describe('an app built once per file, with a client over HTTP per test', () => {
  const events: string[] = [];
  let app: App;
  beforeAll(async () => {
    app = await pooledApp(events);
  });

  it.each([1, 2, 3])('test %i is served with the pool open, in the app and in the mounted app', async (run) => {
    const client = await createTestClient(app, { transport: 'http' });
    try {
      expect(await toolText(client.callTool({ name: 'state', arguments: {} }))).toBe('open');
      expect(await toolText(client.callTool({ name: 'inner_state', arguments: {} }))).toBe('open');
    } finally {
      await client.close();
    }
    // The client's close stopped the app: each test started it again, and stopped it once.
    expect(events).toEqual(Array.from({ length: run }, () => oneRun).flat());
  });
});

describe('an app built once per file, started and stopped around each test, with a client in memory per test', () => {
  const events: string[] = [];
  let app: App;
  beforeAll(async () => {
    app = await pooledApp(events);
  });
  beforeEach(() => app.start());
  afterEach(() => app.stop());

  it.each([1, 2])('test %i is served with the pool open', async (run) => {
    const client = await createTestClient(app);
    try {
      expect(await toolText(client.callTool({ name: 'state', arguments: {} }))).toBe('open');
      expect(await toolText(client.callTool({ name: 'inner_state', arguments: {} }))).toBe('open');
    } finally {
      await client.close();
    }
    expect(events).toEqual([...Array.from({ length: run - 1 }, () => oneRun).flat(), ...oneRun.slice(0, 3)]);
  });
});

describe('app.start() and app.stop() around a restart', () => {
  it('a second start while started, or stop while stopped, does nothing; a start asked during a stop runs after it', async () => {
    const events: string[] = [];
    const app = await pooledApp(events);
    await Promise.all([app.start(), app.start()]);
    await app.start();
    expect(events).toEqual(oneRun.slice(0, 3));
    const stopping = app.stop();
    const restarting = app.start();
    await Promise.all([stopping, restarting, app.start()]);
    expect(events).toEqual([...oneRun, ...oneRun.slice(0, 3)]);
    await Promise.all([app.stop(), app.stop()]);
    await app.stop();
    expect(events).toEqual([...oneRun, ...oneRun]);
  });

  it('a stop before any start runs no shutdown hook, closes nothing in a mounted app or extension, and the next start and stop run in full', async () => {
    const events: string[] = [];
    const app = await pooledApp(events);
    // Built, never started: its shutdown hooks would close what no start hook opened.
    await app.stop();
    await Promise.all([app.stop(), app.stop()]);
    expect(events).toEqual([]);
    await app.start();
    await app.stop();
    await app.stop();
    expect(events).toEqual(oneRun);
  });

  it('one listener after another: stdio after HTTP, then HTTP again, each served with the pool open', async () => {
    const events: string[] = [];
    const app = await pooledApp(events);
    const http = await createTestClient(app, { transport: 'http' });
    expect(await toolText(http.callTool({ name: 'state', arguments: {} }))).toBe('open');
    await http.close();

    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let buffered = '';
    stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      for (const line of parts) if (line.trim()) lines.push(JSON.parse(line) as Record<string, unknown>);
    });
    const listener = await app.listen({ transport: 'stdio', stdin, stdout });
    const send = (message: object) => void stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'inner_state', arguments: {} } });
    const answer = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to tools/call over stdio; got ${JSON.stringify(lines)}`)), 5000);
      const look = setInterval(() => {
        const found = lines.find((l) => l.id === 2);
        if (!found) return;
        clearTimeout(timer);
        clearInterval(look);
        resolve(found);
      }, 5);
    });
    expect(answer).toMatchObject({ result: { content: [{ type: 'text', text: 'open' }] } });
    await listener.close();

    const again = await createTestClient(app, { transport: 'http' });
    expect(await toolText(again.callTool({ name: 'state', arguments: {} }))).toBe('open');
    await again.close();
    expect(events).toEqual([...oneRun, ...oneRun, ...oneRun]);
  });
});

describe('the tasks extension, started again', () => {
  class Jobs {
    @Tool({ description: 'Answers done.', task: 'required' })
    job() {
      return 'done';
    }
  }
  /** The intervals set and not cleared since `track()`, counted by wrapping the global functions (the worker's and sweeper's are unref'd: node lists them nowhere). */
  const live = new Set<unknown>();
  const timers = () => live.size;
  const realSet = globalThis.setInterval;
  const realClear = globalThis.clearInterval;
  beforeAll(() => {
    globalThis.setInterval = ((...args: Parameters<typeof setInterval>) => {
      const timer = realSet(...args);
      live.add(timer);
      return timer;
    }) as typeof setInterval;
    globalThis.clearInterval = ((timer: Parameters<typeof clearInterval>[0]) => {
      live.delete(timer);
      realClear(timer);
    }) as typeof clearInterval;
  });
  afterAll(() => {
    globalThis.setInterval = realSet;
    globalThis.clearInterval = realClear;
  });

  it('registers with its store once, runs queued tasks with its worker again, and leaves no timer or listener behind', async () => {
    const store = new CountingTaskStore();
    const app = await createApp({ name: 'jobs', version: '1', tools: [Jobs], extensions: [tasks({ store, queue: true, worker: { pollMs: 10 }, logger: silent })], logger: silent });
    const handler = createFetchHandler(app, { logError: () => undefined });
    try {
      const before = timers();
      await app.start();
      const started = timers();
      expect(started).toBeGreaterThan(before);
      await app.stop();
      expect(store.live).toEqual({ cancel: 0, change: 0 });
      expect(timers()).toBe(before);
      await app.start();
      expect(store.live).toEqual({ cancel: 1, change: 1 });
      expect(timers()).toBe(started);
      // Queued, the task runs only if a worker of this instance takes it: the one started again.
      const { taskId } = (await modernRequest(handler, 'tools/call', { name: 'job', arguments: {} }, { capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } } })) as { taskId: string };
      let task: StoredTask | undefined;
      for (let i = 0; i < 400 && task?.status !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        task = await store.get(taskId);
      }
      expect(task?.status).toBe('completed');
      await app.stop();
      expect(store.live).toEqual({ cancel: 0, change: 0 });
      expect(timers()).toBe(before);
    } finally {
      await app.stop();
      await handler.close();
    }
  });
});

describe('the skills extension, started again', () => {
  const ANY = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } };
  const skillMd = (name: string) => `---\nname: ${name}\ndescription: The ${name} skill.\n---\n\n# ${name}\n`;

  it('watches its folder again: a skill added after the restart is served', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwright-skills-restart-'));
    cpSync(join(__dirname, 'fixtures', 'skills'), dir, { recursive: true });
    const app = await createApp({ name: 'skilled', version: '1', tools: [PoolTools], services: [Pool], logger: silent, extensions: [skills({ dir, watch: true })] });
    const client = await createTestClient(app);
    const uris = async () => ((await client.request({ method: 'skills/list', params: {} } as never, ANY as never)) as { skills: { uri: string }[] }).skills.map((s) => s.uri);
    try {
      await app.start();
      await app.stop();
      await app.start();
      mkdirSync(join(dir, 'triage'));
      writeFileSync(join(dir, 'triage', 'SKILL.md'), skillMd('triage'));
      await waitFor(async () => (await uris()).includes('skill://triage/SKILL.md'), 'the skill added after the restart in skills/list');
      expect(await toolText(client.callTool({ name: 'state', arguments: {} }))).toBe('open');
    } finally {
      await client.close();
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
