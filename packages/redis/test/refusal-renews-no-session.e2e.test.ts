import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { ConfigError, Tool } from '@toolwright/core';
import { createApp, type AppOptions } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import type { Cluster } from '@toolwright/server/http';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startFetchInstances, type FetchInstance } from './fixtures/fetchInstances';
import { eventually, startInstances, stopInstances, type Instance } from './fixtures/instances';
import { HEADERS, openRawSession, rpc } from './fixtures/sse';

/** Releases the `hold` calls running now. */
let release: () => void = () => {};
let held = new Promise<void>((resolve) => (release = resolve));

class Pinger {
  @Tool({ description: 'Answers at once.' }) ping() {
    return 'pong';
  }

  @Tool({ description: 'Answers once the test releases it.' }) async hold() {
    await held;
    return 'released';
  }
}

const app: AppOptions = { name: 'renewal', version: '1', tools: [Pinger] };
const IDLE_MS = 1500;
const sessions = { idleTimeoutMs: IDLE_MS, initializeRate: false } as const;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The refusals sent to a session, each with the status it gets while the session lives. */
const REFUSALS: { what: string; send: (url: string, session: string, i: number) => Promise<Response> }[] = [
  {
    what: 'a MCP-Protocol-Version the session did not negotiate (refused by the cluster)',
    send: (url, session, i) =>
      fetch(url, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/list' }),
      }),
  },
  {
    what: "a second initialize on the session (refused by the session's transport)",
    send: (url, session, i) =>
      rpc(url, session, { jsonrpc: '2.0', id: i, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'again', version: '1' } } }),
  },
];

/**
 * A request the endpoint refuses (status 400 or above) did not use its session: in a cluster it
 * renews the session's record in Redis no more than it renews a session held in memory alone.
 * A session that gets only refusals expires as if it got nothing; one that gets accepted requests
 * stays. Two instances sharing a real redis-server, for the node listener and the fetch handler.
 */
describe('a refused request renews no clustered session', () => {
  let redis: RedisServer;
  let node: Instance[];
  let fetchers: FetchInstance[];
  let targets: Record<string, { urls: [string, string]; cluster: RedisCluster }>;

  beforeAll(async () => {
    redis = await startRedisServer();
    node = await startInstances(2, redis.url, app, { sessions });
    fetchers = await startFetchInstances(2, redis.url, `renewal-${randomUUID().slice(0, 8)}:`, app, { sessions, logError: () => {} });
    targets = {
      'node listener': { urls: [node[0].url, node[1].url], cluster: node[0].cluster },
      'fetch handler': { urls: [fetchers[0].url, fetchers[1].url], cluster: fetchers[0].cluster },
    };
  });
  afterAll(async () => {
    for (const instance of fetchers ?? []) await instance.close();
    await stopInstances(node ?? []);
    await redis?.close();
  });

  /** When the session's record expires, by Redis's clock (ms since epoch; -2 once it is gone), read without renewing it. */
  const expiryOf = async (cluster: RedisCluster, session: string) => Number(await cluster.redis.call('PEXPIRETIME', `${cluster.prefix}s:${session}`));

  it.each(['node listener', 'fetch handler'])('through the %s, a session that gets only refused requests expires no later than one that gets none', async (name) => {
    const { urls, cluster } = targets[name];
    const [a, b] = urls;
    const refused = await openRawSession(a);
    // Opened after it: it must not outlive the refused session.
    const idle = await openRawSession(a);
    let i = 0;
    await eventually(
      async () => {
        const refusal = REFUSALS[i % REFUSALS.length];
        // Mostly through the instance that opened it; every third through the other, which makes a copy of it.
        const url = i % 3 === 2 ? b : a;
        const before = await expiryOf(cluster, refused);
        const response = await refusal.send(url, refused, ++i);
        await response.text();
        const after = await expiryOf(cluster, refused);
        // Once the session is gone, a refusal is a 404 like any request naming it; one that expired while the request was under way may get either.
        const expected = before < 0 ? [404] : after > 0 ? [400] : [400, 404];
        expect({ what: refusal.what, status: response.status }).toEqual({ what: refusal.what, status: expected.includes(response.status) ? response.status : expected });
        // Nothing pushed the record's expiry back.
        expect({ what: refusal.what, renewed: after > before }).toEqual({ what: refusal.what, renewed: false });
        if ((await expiryOf(cluster, idle)) > 0) await pause(20);
        return (await expiryOf(cluster, idle)) < 0;
      },
      IDLE_MS * 4,
      'the idle session to expire',
    );
    // Opened first and never renewed since: gone too (a short grace for the ms its opening's own renewal may have landed after the other's).
    await eventually(async () => (await expiryOf(cluster, refused)) === -2, 100, 'the refused session to be gone with the idle one');
    for (const url of urls) expect((await rpc(url, refused, { jsonrpc: '2.0', id: 'last', method: 'tools/list' })).status).toBe(404);
  });

  it.each(['node listener', 'fetch handler'])('through the %s, accepted requests keep the session alive past its idle timeout, renewing it', async (name) => {
    const { urls, cluster } = targets[name];
    const session = await openRawSession(urls[0]);
    const until = Date.now() + IDLE_MS * 3;
    for (let i = 0; Date.now() < until; i++) {
      const before = await expiryOf(cluster, session);
      const response = await rpc(urls[i % 2], session, { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'ping', arguments: {} } });
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('pong');
      // Renewed once the request was answered (in the background: the response does not wait for it).
      await eventually(async () => (await expiryOf(cluster, session)) > before, 2000, 'the session to be renewed');
      await pause(IDLE_MS / 5);
    }
    expect((await rpc(urls[1], session, { jsonrpc: '2.0', id: 'last', method: 'tools/list' })).status).toBe(200);
  });
});

/**
 * A long request renews its session once it is known to be accepted (its response started),
 * not only when it ends: a session whose record had little time left when a long call started
 * outlives the call. The idle timeout is long here, so the renewal of requests kept open
 * (every third of it) comes too late to be the one seen.
 */
describe('a long accepted request renews a clustered session while it runs', () => {
  let redis: RedisServer;
  let node: Instance[];
  let fetchers: FetchInstance[];
  let targets: Record<string, { url: string; cluster: RedisCluster }>;
  const long = { idleTimeoutMs: 30_000, initializeRate: false } as const;

  beforeAll(async () => {
    redis = await startRedisServer();
    node = await startInstances(1, redis.url, app, { sessions: long });
    fetchers = await startFetchInstances(1, redis.url, `long-${randomUUID().slice(0, 8)}:`, app, { sessions: long, logError: () => {} });
    targets = { 'node listener': { url: node[0].url, cluster: node[0].cluster }, 'fetch handler': { url: fetchers[0].url, cluster: fetchers[0].cluster } };
  });
  afterAll(async () => {
    release();
    for (const instance of fetchers ?? []) await instance.close();
    await stopInstances(node ?? []);
    await redis?.close();
  });

  const expiryOf = async (cluster: RedisCluster, session: string) => Number(await cluster.redis.call('PEXPIRETIME', `${cluster.prefix}s:${session}`));

  it.each(['node listener', 'fetch handler'])('through the %s, a call still running has renewed its session', async (name) => {
    const { url, cluster } = targets[name];
    const session = await openRawSession(url);
    held = new Promise<void>((resolve) => (release = resolve));
    const before = await expiryOf(cluster, session);
    const call = await rpc(url, session, { jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'hold', arguments: {} } });
    expect(call.status).toBe(200);
    // More than the few ms the initialize's own renewal, if it landed after `before` was read, could add.
    await eventually(async () => (await expiryOf(cluster, session)) > before + 50, 1000, 'the running call to renew its session');
    release();
    expect(await call.text()).toContain('released');
  });
});

describe('a cluster written before SharedSessions.peek', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `old-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  /** The real cluster, its sessions without `peek`: as a Cluster written against the older interface is. */
  const olderCluster = (): Cluster => {
    const { create, touch, update, end, onEnded } = cluster.sessions;
    return { ...cluster, sessions: { create, touch, update, end, onEnded } as unknown as Cluster['sessions'] };
  };
  const refusal = expect.objectContaining({ message: expect.stringContaining('`cluster.sessions` has no `peek(id, principal)`. Add it to your Cluster') });

  it('is refused at startup by the node listener, with a ConfigError naming what to add', async () => {
    const served = (await createApp(app)).listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false, cluster: olderCluster() });
    await expect(served).rejects.toBeInstanceOf(ConfigError);
    await expect(served).rejects.toEqual(refusal);
  });

  it('is refused at startup by the fetch handler, with a ConfigError naming what to add', async () => {
    const created = await createApp(app);
    let thrown: unknown;
    try {
      createFetchHandler(created, { cluster: olderCluster() });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect(thrown).toEqual(refusal);
  });
});
