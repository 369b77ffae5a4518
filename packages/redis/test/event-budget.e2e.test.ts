import { randomUUID } from 'node:crypto';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

/**
 * Issue 31, item 10, in Redis: the events kept for `Last-Event-ID` replay are bounded in
 * bytes per session and for the whole cluster, not only in count; a session past a budget
 * drops its own oldest events, never another session's; ending a session gives its bytes back.
 */
const MiB = 1024 * 1024;
const note = (text: string) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { level: 'info', data: text } });
const limits = { idleTimeoutMs: 60_000, maxSessions: 100, maxSessionsPerPrincipal: 100 };

describe('cluster event stores are bounded in bytes (issue 31, item 10)', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `budget-${randomUUID().slice(0, 8)}:`, logWrite: () => {}, maxEventBytesPerSession: 4 * MiB, maxEventBytesTotal: 6 * MiB });
  });
  afterAll(async () => {
    await cluster?.close();
    await redis?.close();
  });

  async function openSession(): Promise<string> {
    const id = randomUUID();
    await cluster.sessions.create({ id, initialize: {}, protocolVersion: '2025-11-25', principal: undefined, owner: `anonymous ${id}` }, limits);
    return id;
  }
  const bytesHeld = async (id: string) => Number((await cluster.redis.hget(`${cluster.prefix}eb`, id)) ?? 0);
  const total = async () => Number((await cluster.redis.hget(`${cluster.prefix}eb`, '')) ?? 0);
  /** The bytes of the messages a session's stream holds, counted from the stream itself. */
  const streamBytes = async (id: string) => (await cluster.redis.xrange(`${cluster.prefix}e:${id}`, '-', '+')).reduce((sum, [, fields]) => sum + Buffer.byteLength(fields[fields.indexOf('m') + 1]), 0);

  it('keeps at most maxEventBytesPerSession of one session: older events fall out, one bigger than that alone is not kept', async () => {
    const id = await openSession();
    const store = cluster.eventStore(id);
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) ids.push(await store.storeEvent('s', note('x'.repeat(MiB))));
    expect(await store.getStreamIdForEventId!(ids[9])).toBe('s');
    expect(await store.getStreamIdForEventId!(ids[0])).toBeUndefined();
    expect(await cluster.redis.xlen(`${cluster.prefix}e:${id}`)).toBe(3);
    expect(await streamBytes(id)).toBeLessThanOrEqual(4 * MiB);
    expect(await bytesHeld(id)).toBe(await streamBytes(id));
    const huge = await store.storeEvent('s', note('y'.repeat(5 * MiB)));
    expect(await store.getStreamIdForEventId!(huge)).toBeUndefined();
    await cluster.sessions.end(id);
    expect(await bytesHeld(id)).toBe(0);
  });

  it("shares maxEventBytesTotal among the sessions: the session going past it drops its own oldest, never another's; ending one gives its bytes back", async () => {
    const before = await total();
    const quiet = await openSession();
    const noisy = await openSession();
    const kept: string[] = [];
    for (let i = 0; i < 3; i++) kept.push(await cluster.eventStore(quiet).storeEvent('s', note('q'.repeat(MiB))));
    const noise: string[] = [];
    for (let i = 0; i < 8; i++) noise.push(await cluster.eventStore(noisy).storeEvent('s', note('n'.repeat(MiB))));
    for (const id of kept) expect(await cluster.eventStore(quiet).getStreamIdForEventId!(id)).toBe('s');
    expect(await cluster.eventStore(noisy).getStreamIdForEventId!(noise[7])).toBe('s');
    expect(await cluster.eventStore(noisy).getStreamIdForEventId!(noise[0])).toBeUndefined();
    expect(await total()).toBeLessThanOrEqual(6 * MiB);
    expect(await total()).toBe(before + (await bytesHeld(quiet)) + (await bytesHeld(noisy)));
    const quietBytes = await bytesHeld(quiet);
    await cluster.sessions.end(quiet);
    expect(await total()).toBe(before + (await bytesHeld(noisy)));
    expect(quietBytes).toBeGreaterThan(3 * MiB);
    await cluster.sessions.end(noisy);
    expect(await total()).toBe(before);
  });

  it('counts what a publish appends to every session (notifications fanned out) in the same budgets', async () => {
    const id = await openSession();
    const store = cluster.eventStore(id);
    await store.storeEvent('standalone', note('a'.repeat(MiB)));
    for (let i = 0; i < 10; i++) await cluster.publish({ resourceUpdated: `big://${'u'.repeat(MiB / 2)}/${i}` });
    expect(await streamBytes(id)).toBeLessThanOrEqual(4 * MiB);
    expect(await bytesHeld(id)).toBe(await streamBytes(id));
    expect(await cluster.redis.xlen(`${cluster.prefix}e:${id}`)).toBeGreaterThan(0);
    await cluster.sessions.end(id);
  });
});
