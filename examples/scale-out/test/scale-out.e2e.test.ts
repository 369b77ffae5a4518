import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { startRoundRobinProxy, type RoundRobinProxy } from '../src/proxy';
import { runLoad } from '../src/load';
import { spawnRedisServer } from '../../../packages/redis/test/fixtures/spawnRedisServer';

const SERVER = join(__dirname, '..', 'dist', 'server.js');

async function until(check: () => Promise<boolean> | boolean, ms: number, what: string): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The host an instance listens on, from its `listening on` line (its stderr goes on to the test's). */
function listeningHost(child: ChildProcess, name: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let said = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      process.stderr.write(chunk);
      said += chunk.toString();
      const host = /listening on http:\/\/(127\.0\.0\.1:\d+)\//.exec(said)?.[1];
      if (host) resolve(host);
    });
    child.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it listened:\n${said}`)));
  });
}

const answers = (url: string) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text;

describe('examples/scale-out: three instances behind a round-robin proxy, on a real redis-server', () => {
  const dir = mkdtempSync(join(tmpdir(), 'scale-out-'));
  let redis: ChildProcess;
  const instances = new Map<string, ChildProcess>();
  let proxy: RoundRobinProxy;
  /** A connection of the test's own (another prefix), to see what the instances subscribed to. */
  let probe: RedisCluster;

  beforeAll(async () => {
    // Ready once it says it accepts connections, on a port picked again if another test's server took it meanwhile.
    const started = await spawnRedisServer((port) => ['--port', String(port)], ['--dir', dir, '--save', '', '--appendonly', 'no']);
    redis = started.child;
    const redisPort = started.port;
    // Each instance picks its own port and says where it listens: a port picked here beforehand could be taken meanwhile
    // by another test's server, which then answered in its place (a clean-clone CI run: EADDRINUSE, "Session not found").
    for (let i = 0; i < 3; i++) {
      const child = spawn(process.execPath, [SERVER, '--port', '0'], {
        stdio: ['ignore', 'ignore', 'pipe'],
        env: { ...process.env, INSTANCE: `instance-${i + 1}`, REDIS_URL: `redis://127.0.0.1:${redisPort}` },
      });
      instances.set(await listeningHost(child, `instance-${i + 1}`), child);
    }
    for (const host of instances.keys()) await until(() => answers(`http://${host}/healthz`), 15_000, `${host} to listen`);
    proxy = await startRoundRobinProxy([...instances.keys()].map((host) => `http://${host}/mcp`));
    probe = await createRedisCluster({ url: `redis://127.0.0.1:${redisPort}`, prefix: 'scale-out-test-probe:', logWrite: () => {} });
  }, 30_000);

  afterAll(async () => {
    await probe?.close();
    await proxy?.close();
    for (const child of instances.values()) child.kill('SIGKILL');
    redis?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  /** Waits until an instance watches the session's GET stream (subscribed to its event channel): events stored anywhere then reach it. */
  const streamWatched = (sessionId: string) => until(async () => ((await probe.redis.pubsub('CHANNELS', `*ev:${sessionId}`)) as string[]).length > 0, 5000, 'the GET stream to be watched');

  async function connect(): Promise<{ client: Client; updates: string[]; sessionId: string }> {
    const transport = new StreamableHTTPClientTransport(new URL(proxy.url), {
      reconnectionOptions: { initialReconnectionDelay: 50, maxReconnectionDelay: 200, reconnectionDelayGrowFactor: 1.5, maxRetries: 20 },
    });
    const client = new Client({ name: 'scale-out-test', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    const updates: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { ok: true } }));
    await client.connect(transport);
    return { client, updates, sessionId: transport.sessionId! };
  }

  it('serves one session from every instance: calls, session state, progress, elicitation, subscriptions', async () => {
    const { client, updates, sessionId } = await connect();
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) served.add(textOf(await client.callTool({ name: 'whoami', arguments: {} }))!);
    expect([...served].sort()).toEqual(['instance-1', 'instance-2', 'instance-3']);

    for (const text of ['a', 'b', 'c']) await client.callTool({ name: 'note', arguments: { text } });
    const notes = await client.callTool({ name: 'note', arguments: { text: 'd' } });
    expect(JSON.parse(textOf(notes)!).notes).toEqual(['a', 'b', 'c', 'd']);

    const progress: number[] = [];
    expect(textOf(await client.callTool({ name: 'work', arguments: { steps: 3 } }, undefined, { onprogress: (p) => void progress.push(p.progress) }))).toMatch(/^worked 3 steps on instance-\d$/);
    expect(progress).toEqual([1, 2, 3]);

    expect(textOf(await client.callTool({ name: 'confirm', arguments: { question: 'Sure?' } }))).toBe('confirmed');

    await client.subscribeResource({ uri: 'board://status' });
    await streamWatched(sessionId);
    for (let i = 0; i < 3; i++) await client.callTool({ name: 'announce', arguments: {} });
    await until(() => updates.length === 3, 3000, 'three resources/updated');
    await client.close();
  });

  it('kill -9 of the instance holding the GET stream: the client resumes on another, nothing lost', async () => {
    const { client, updates, sessionId } = await connect();
    await client.subscribeResource({ uri: 'board://status' });
    await until(() => proxy.routed.some((r) => r.startsWith('GET ')), 3000, 'the GET stream to open');
    await streamWatched(sessionId);
    const holder = [...proxy.routed]
      .reverse()
      .find((r) => r.startsWith('GET '))!
      .split(' ')[1];
    await client.callTool({ name: 'announce', arguments: {} });
    await until(() => updates.length === 1, 3000, 'the first update');

    const killed = instances.get(holder)!;
    const exited = once(killed, 'exit');
    killed.kill('SIGKILL');
    await exited;
    // While the client's GET stream is down: three changes, served by the instances left.
    for (let i = 0; i < 3; i++) expect(textOf(await client.callTool({ name: 'announce', arguments: {} }))).toBe('announced');
    await until(() => updates.length === 4, 5000, 'the updates missed while the stream was down');
    await new Promise((r) => setTimeout(r, 200));
    expect(updates).toEqual(Array(4).fill('board://status'));
    // The stream came back on another instance.
    const again = [...proxy.routed]
      .reverse()
      .find((r) => r.startsWith('GET '))!
      .split(' ')[1];
    expect(again).not.toBe(holder);
    expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatch(/^instance-\d$/);
    await client.close();
  }, 20_000);

  it('carries concurrent sessions without a failed call or a cross-session leak', async () => {
    const report = await runLoad(proxy.url, 10, 20);
    process.stderr.write(`scale-out load (10 x 20, two instances left): ${JSON.stringify(report)}\n`);
    expect(report).toMatchObject({ calls: 200, failed: 0, leaks: 0 });
  }, 60_000);
});
