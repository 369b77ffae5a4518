import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { EventStoreFactory, HttpListener } from '@toolwright/server/http';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { HEADERS } from './fixtures/sse';

/**
 * On a real redis-server: a session whose start fails on this instance after its record was
 * written to the cluster (here its event store cannot be opened) leaves no record behind. It
 * takes no place in `maxSessions` until it would have expired, and no other instance finds it.
 */
class Ping {
  @Tool({ description: 'Pong.' }) ping() {
    return 'pong';
  }
}

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
const silent = { debug() {}, info() {}, warn() {}, error() {} };

describe('a session that fails to start after the cluster recorded it', () => {
  let redis: RedisServer;
  let app: App;
  let cluster: RedisCluster;
  let listener: HttpListener;
  let failNext = true;
  const logged: string[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    app = await createApp({ name: 'start-fails', version: '1', tools: [Ping], logger: silent });
    cluster = await createRedisCluster({ url: redis.url, prefix: 'start-fails:', logWrite: () => {} });
    // The first session's event store cannot be opened: its start fails once its record is written.
    const eventStore: EventStoreFactory = (id) => {
      if (!failNext) return cluster.eventStore(id);
      failNext = false;
      throw new Error('the event store is unreachable');
    };
    listener = await app.listen({
      transport: 'http',
      port: 0,
      host: '127.0.0.1',
      requestLogLevel: 'silent',
      exitOnSignal: false,
      cluster,
      eventStore,
      sessions: { maxSessions: 1, initializeRate: false },
      logWrite: (line: string) => void logged.push(line),
    });
  });
  afterAll(async () => {
    await listener?.close();
    await cluster?.close();
    await redis?.close();
  });

  it('is deleted from the cluster: the next initialize gets the one place there is', async () => {
    const failed = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) });
    expect(failed.status).toBe(500);
    await failed.text();
    expect(failNext).toBe(false);
    expect(await cluster.redis.zcard('start-fails:sessions')).toBe(0);
    expect(await cluster.redis.keys('start-fails:s:*')).toEqual([]);
    const opened = await fetch(listener.url, { method: 'POST', headers: HEADERS, body: JSON.stringify(initialize) });
    expect(opened.status).toBe(200);
    await opened.text();
    expect(opened.headers.get('mcp-session-id')).toBeTruthy();
    expect(await cluster.redis.zcard('start-fails:sessions')).toBe(1);
  });
});
