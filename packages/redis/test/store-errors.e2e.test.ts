import { ConfigError, ToolwrightError } from '@toolwright/core';
import { createRedisCluster, createRedisMiddlewareStores, createRedisRequestStateStore, RedisTaskStore, RedisUnavailableError, type RedisCluster } from '@toolwright/redis';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/**
 * What the Redis stores throw is a Toolwright error, as the server's in-memory stores throw
 * (docs: Errors): `ConfigError` for a wrong option or an unreachable Redis at startup,
 * `ToolwrightError` (kind 'internal') for what the server or a tool asked of a store that cannot
 * be done, and `RedisUnavailableError` for a command Redis could not run. Each message says what,
 * where and how to fix it.
 */
describe('@toolwright/redis stores throw Toolwright errors', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: 'store-errors:', logWrite: () => {} });
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  const internal = (message: RegExp) => expect.objectContaining({ name: 'ToolwrightError', kind: 'internal', message: expect.stringMatching(message) });

  it('the event store: an unknown event id, and a stream other than the GET stream', async () => {
    const store = cluster.eventStore('no-such-session');
    const replay = store.replayEventsAfter('1-0', { send: async () => undefined });
    await expect(replay).rejects.toBeInstanceOf(ToolwrightError);
    await expect(replay).rejects.toEqual(internal(/^@toolwright\/redis: unknown event id '1-0' in session no-such-session .*ask getStreamIdForEventId first\.$/));
    await expect(store.watch!('request-7', () => undefined)).rejects.toEqual(internal(new RegExp(`only the GET stream \\('${GET_STREAM_ID}'\\) can be watched, not 'request-7'`)));
    await expect(store.claim!('request-7', () => undefined)).rejects.toEqual(internal(new RegExp(`only the GET stream \\('${GET_STREAM_ID}'\\) can be claimed, not 'request-7'`)));
    store.close?.();
  });

  it('ctx.session: a write to an ended session, and a value that is not JSON', async () => {
    const state = cluster.sessionState('ended-session');
    await expect(state.set('count', 1)).rejects.toEqual(internal(/^ctx\.session: session ended-session has ended or expired/));
    await expect(state.delete('count')).rejects.toBeInstanceOf(ToolwrightError);
    await cluster.redis.hset(`${cluster.prefix}st:ended-session`, 'count', '{broken');
    await expect(state.get('count')).rejects.toEqual(internal(/^ctx\.session: the value of 'count' in Redis is not valid JSON/));
  });

  it('the task store: a task id taken, and a malformed task (with the JSON-RPC code the client is told)', async () => {
    const store = new RedisTaskStore({ redis: cluster.redis, prefix: cluster.prefix });
    const now = new Date().toISOString();
    const task = { taskId: 'taken-task', owner: '', status: 'working', expiresAt: Date.now() + 60_000, ttlMs: 60_000, pollIntervalMs: 1000, createdAt: now, lastUpdatedAt: now, tool: 't' } as const;
    await store.create(task);
    await expect(store.create(task)).rejects.toEqual(internal(/^@toolwright\/redis: task id taken-task is taken; task ids must be new$/));
    await cluster.redis.set(`${cluster.prefix}task:bad-task`, 'not json', 'PX', 60_000);
    const malformed = store.get('bad-task');
    await expect(malformed).rejects.toBeInstanceOf(ToolwrightError);
    await expect(malformed).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/task bad-task in Redis is malformed/) });
  });

  it('a wrong option, and a Redis that cannot be reached at startup, are ConfigErrors', async () => {
    expect(() => createRedisMiddlewareStores(cluster, { bucketTtlMs: -1 })).toThrow(ConfigError);
    expect(() => createRedisMiddlewareStores(cluster, { bucketTtlMs: -1 })).toThrow(/^createRedisMiddlewareStores: bucketTtlMs must be a number of milliseconds, 0 or more .*got -1\.$/);
    // Port 1: a privileged port nothing here listens on, and never one the system hands out for port 0, which a port found
    // free could be, to another test's redis-server, before the connection is tried.
    const url = 'redis://127.0.0.1:1';
    const failure = await createRedisCluster({ url, connectTimeoutMs: 1000, logWrite: () => {} }).then(
      (unexpected) => unexpected.close().then(() => undefined),
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ConfigError);
    expect(failure).toMatchObject({ kind: 'config', message: expect.stringMatching(/^@toolwright\/redis: cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ .*Start redis-server/) });
  });

  it('the request-state store says Redis is unavailable (through runCommand), with the reason', async () => {
    const store = createRedisRequestStateStore(cluster);
    expect(await store.claim('round-1', Date.now() + 60_000)).toBe(true);
    expect(await store.claim('round-1', Date.now() + 60_000)).toBe(false);
    const broken = createRedisRequestStateStore({
      prefix: cluster.prefix,
      redis: { set: () => Promise.reject(Object.assign(new Error('OOM command not allowed'), { name: 'ReplyError' })) } as unknown as RedisCluster['redis'],
    });
    await expect(broken.claim('round-2', Date.now() + 60_000)).rejects.toEqual(
      expect.objectContaining({ name: 'RedisUnavailableError', message: 'Redis refused the command: OOM command not allowed' }),
    );
    await expect(broken.claim('round-2', Date.now() + 60_000)).rejects.toBeInstanceOf(RedisUnavailableError);
  });
});
