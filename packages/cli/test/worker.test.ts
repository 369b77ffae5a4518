import { join } from 'node:path';
import { runCli } from '../src/runCli';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright worker <module>`: starts the app a compiled module exports without serving, so
 * its tasks extension takes queued tasks (here, one put in the store the module shares, as a
 * serving instance with `tasks({ queue: true })` would) and runs them; a signal stops it.
 */
const FIXTURE = join(__dirname, 'fixtures', 'worker', 'app.js');

interface FixtureModule {
  readonly store: {
    create(task: object): Promise<void>;
    enqueue(id: string): Promise<void>;
    get(id: string): Promise<{ status: string; result?: { content: { text: string }[] } } | undefined>;
  };
}

describe('toolwright worker', () => {
  it('runs the queued tasks of the app a module exports, and stops on SIGTERM', async () => {
    const { store } = require(FIXTURE) as FixtureModule;
    const io = memoryIo(__dirname);
    const exited = runCli(['worker', FIXTURE, '--export', 'createReportsApp'], io);
    const now = Date.now();
    const stamp = new Date(now).toISOString();
    await store.create({
      taskId: 'queued-1',
      owner: '',
      status: 'working',
      createdAt: stamp,
      lastUpdatedAt: stamp,
      ttlMs: 60_000,
      pollIntervalMs: 1000,
      expiresAt: now + 60_000,
      heartbeatAt: now,
      tool: 'build',
      arguments: { name: 'q4' },
      queued: true,
    });
    await store.enqueue('queued-1');
    let task = await store.get('queued-1');
    for (let i = 0; i < 1000 && task?.status === 'working'; i++) {
      await new Promise((r) => setTimeout(r, 5));
      task = await store.get('queued-1');
    }
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ text: `built q4 in process ${process.pid}` }] } });
    expect(io.errors()).toContain('[toolwright worker] working for');
    process.emit('SIGTERM');
    expect(await exited).toBe(0);
  });

  it('names what is wrong with the module: missing, TypeScript, no app export', async () => {
    const io = memoryIo(__dirname);
    expect(await runCli(['worker', 'nowhere.js'], io)).toBe(2);
    expect(await runCli(['worker', 'app.ts'], io)).toBe(2);
    expect(await runCli(['worker', FIXTURE], io)).toBe(3);
    expect(io.errors()).toContain("exports no 'app' or 'default'");
    expect(await runCli(['worker', FIXTURE, '--export', 'store'], io)).toBe(3);
    expect(io.errors()).toContain('is not a Toolwright app');
  });
});
