import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually, startInstances, stopInstances, type Instance } from './fixtures/instances';
import { HEADERS, openRawSession, rpc } from './fixtures/sse';

/** The abandoned sessions' idle timeout. */
const IDLE_MS = 30_000;
/**
 * How long the test opens sessions: up to 5,000, but no new one after a third of the idle timeout, so none
 * has expired when they are counted, however slow the machine (a CI machine shared with other builds opened
 * 110 to 175 a second).
 */
const OPEN_MS = IDLE_MS / 3;

class Ping {
  @Tool({ description: 'Pong.' }) ping() {
    return 'pong';
  }
}

const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };

describe('session limits across the cluster, and keys that expire', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.close());

  it('holds maxSessions across instances: the least recently used session is ended everywhere', async () => {
    const instances: Instance[] = await startInstances(2, redis.url, { name: 'limits', version: '1', tools: [Ping] }, { sessions: { maxSessions: 2 } });
    try {
      const [a, b] = instances;
      const first = await openRawSession(a.url);
      const second = await openRawSession(b.url);
      expect((await rpc(b.url, first, list)).status).toBe(200);
      expect((await rpc(a.url, second, list)).status).toBe(200);
      const used = Date.now();
      await eventually(() => Date.now() > used, 1000, 'the clock to tick'); // last uses a millisecond apart
      // `first` was used before `second`: it goes when a third session opens.
      await rpc(a.url, second, list);
      const third = await openRawSession(a.url);
      await eventually(async () => (await rpc(a.url, first, list)).status === 404, 2000, 'the evicted session to be gone on A');
      expect((await rpc(b.url, first, list)).status).toBe(404);
      expect((await rpc(b.url, second, list)).status).toBe(200);
      expect((await rpc(b.url, third, list)).status).toBe(200);
    } finally {
      await stopInstances(instances);
    }
  });

  it('keeps a session alive while its GET stream is open, as in memory; expires it once idle', async () => {
    const instances = await startInstances(2, redis.url, { name: 'idle', version: '1', tools: [Ping] }, { sessions: { idleTimeoutMs: 1500 } });
    try {
      const [a, b] = instances;
      const watched = await openRawSession(a.url);
      const idle = await openRawSession(a.url);
      const controller = new AbortController();
      const get = await fetch(a.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': watched, 'mcp-protocol-version': '2025-11-25' }, signal: controller.signal });
      expect(get.status).toBe(200);
      // Until the idle session's record has expired in Redis (idle 1.5 s; asking about it would use it), while the watched one is kept.
      const record = (id: string) => `${a.cluster.prefix}s:${id}`;
      await eventually(async () => (await a.cluster.redis.exists(record(idle))) === 0, 10_000, 'the idle session to expire');
      expect(await a.cluster.redis.exists(record(watched))).toBe(1);
      expect((await rpc(b.url, watched, list)).status).toBe(200);
      expect((await rpc(b.url, idle, list)).status).toBe(404);
      controller.abort();
    } finally {
      await stopInstances(instances);
    }
  });

  it(
    'up to 5,000 sessions opened and abandoned: Redis keys and memory back to baseline after expiry',
    async () => {
      const instances = await startInstances(
        2,
        redis.url,
        { name: 'abandon', version: '1', tools: [Ping] },
        { sessions: { idleTimeoutMs: IDLE_MS, maxSessions: 20_000, maxSessionsPerPrincipal: 20_000, initializeRate: false } },
      );
      try {
        const admin = instances[0].cluster.redis;
        await admin.flushall();
        const baseKeys = await admin.dbsize();
        const baseMemory = usedMemory(await admin.info('memory'));
        const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'abandon', version: '1' } } });
        const most = 5_000;
        let sent = 0;
        let opened = 0;
        const started = Date.now();
        await Promise.all(
          Array.from({ length: 20 }, async () => {
            while (sent < most && Date.now() - started < OPEN_MS) {
              const response = await fetch(instances[sent++ % 2].url, { method: 'POST', headers: HEADERS, body });
              await response.text();
              if (response.status === 200) opened++;
            }
          }),
        );
        const openMs = Date.now() - started;
        expect(opened).toBe(sent);
        // Enough to see: even a machine shared with other builds opens about a thousand in 10 s.
        expect(opened).toBeGreaterThan(200);
        const peakKeys = await admin.dbsize();
        const peakMemory = usedMemory(await admin.info('memory'));
        // None expired yet: the first was opened less than the idle timeout ago.
        expect(await admin.zcard(`${instances[0].cluster.prefix}sessions`)).toBe(opened);
        expect(peakKeys).toBeGreaterThan(opened);
        await eventually(async () => (await admin.dbsize()) === baseKeys, IDLE_MS + 30_000, 'every session key to expire');
        const afterMemory = usedMemory(await admin.info('memory'));
        process.stderr.write(
          `${opened} sessions: opened in ${openMs} ms; keys ${baseKeys} -> ${peakKeys} -> ${await admin.dbsize()}; used_memory ${baseMemory} -> ${peakMemory} -> ${afterMemory} bytes\n`,
        );
        expect(afterMemory).toBeLessThan(baseMemory + 512 * 1024);
        // The instances dropped their local copies as well.
        // Each instance sweeps every half idle timeout.
        await eventually(() => instances.every((i) => i.listener.sessionCount === 0), IDLE_MS, 'local copies to be swept');
      } finally {
        await stopInstances(instances);
      }
    },
    3 * IDLE_MS + 60_000,
  );
});

function usedMemory(info: string): number {
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}
