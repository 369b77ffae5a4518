import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Param, Tool } from '@toolwright/core';
import { GET_STREAM_ID } from '@toolwright/server/http';
import type { RedisCluster } from '@toolwright/redis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startFetchInstances, type FetchInstance } from './fixtures/fetchInstances';
import { startInstances, stopInstances, storedEvents, type Instance } from './fixtures/instances';
import { openGet, openRawSession, readSse, rpc } from './fixtures/sse';

class Echo {
  @Tool({ description: 'Echoes.' }) echo(@Param('text') text: string) {
    return text;
  }
}

/** Short, so a renewal of a GET stream claim comes every 100 ms. */
const CLAIM_MS = 300;
const app = { name: 'leaves-nothing', version: '1', tools: [Echo] };

const end = (url: string, session: string) => fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every key of the prefix that names the session (SCAN), and the cluster's indexes that still list it. */
async function leftOf(cluster: RedisCluster, session: string): Promise<string[]> {
  const left: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await cluster.redis.scan(cursor, 'MATCH', `${cluster.prefix}*`, 'COUNT', 1000);
    left.push(...keys.filter((key) => key.includes(session)));
    cursor = next;
  } while (cursor !== '0');
  if ((await cluster.redis.zscore(`${cluster.prefix}sessions`, session)) !== null) left.push('sessions member');
  if (await cluster.redis.hexists(`${cluster.prefix}eb`, session)) left.push('eb field');
  return left;
}

/**
 * Two node-listener instances and two fetch-handler instances, each its own app and Redis
 * connections on one prefix of a real redis-server: after a session ends with a DELETE over
 * HTTP, nothing of it is left in Redis, whichever instance opened it, served it or held its GET stream.
 */
describe('nothing of a session is left in Redis after a DELETE ends it, on every transport', () => {
  let redis: RedisServer;
  let node: Instance[];
  let fetchers: FetchInstance[];
  let cluster: RedisCluster;
  const prefix = `left-${randomUUID().slice(0, 8)}:`;
  const transports = () => [
    ['node listener', node.map((i) => i.url)],
    ['fetch handler', fetchers.map((i) => i.url)],
  ];

  beforeAll(async () => {
    redis = await startRedisServer();
    node = await startInstances(2, redis.url, app, {}, prefix, { getStreamClaimMs: CLAIM_MS });
    fetchers = await startFetchInstances(2, redis.url, prefix, app, {}, { getStreamClaimMs: CLAIM_MS });
    cluster = node[0].cluster;
  });
  afterAll(async () => {
    for (const instance of fetchers ?? []) await instance.close();
    await stopInstances(node ?? []);
    await redis?.close();
  });

  it.each(['node listener', 'fetch handler'])('a DELETE through the %s instance that never served the session ends it with nothing left', async (name) => {
    const [opener, other] = transports().find(([n]) => n === name)![1] as string[];
    const session = await openRawSession(opener);
    expect(await leftOf(cluster, session)).not.toEqual([]);
    expect((await end(other, session)).status).toBe(200);
    expect(await leftOf(cluster, session)).toEqual([]);
    // Ended everywhere: the instance that opened it knows it no more.
    expect((await end(opener, session)).status).toBe(404);
    expect(await leftOf(cluster, session)).toEqual([]);
  });

  it.each(['node listener', 'fetch handler'])("a copy of the session made on another %s instance stores no event of its own (its replayed initialize's)", async (name) => {
    const [opener, other] = transports().find(([n]) => n === name)![1] as string[];
    const session = await openRawSession(opener);
    const stored = await storedEvents({ cluster }, session);
    // A notification alone: the copy made to take it is all that could store an event.
    expect((await rpc(other, session, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' })).status).toBe(202);
    expect(await storedEvents({ cluster }, session)).toBe(stored);
    expect((await end(other, session)).status).toBe(200);
  });

  it.each(['node listener', 'fetch handler'])('a DELETE through the %s instance that holds the GET stream leaves nothing, renewal ticks included', async (name) => {
    const [opener, holder] = transports().find(([n]) => n === name)![1] as string[];
    const session = await openRawSession(opener);
    const stream = readSse(await openGet(holder, session));
    expect(await cluster.redis.exists(`${prefix}gs:${session}`)).toBe(1);
    expect((await end(holder, session)).status).toBe(200);
    await stream.cancel();
    await pause(CLAIM_MS);
    expect(await leftOf(cluster, session)).toEqual([]);
  });

  it("a claim whose holder did not give it back is not taken again by the holder's renewal once a DELETE ended its session", async () => {
    const [a] = node;
    const session = await openRawSession(a.url);
    let lost = 0;
    // Claimed as for a GET stream, and never given back (as when the release after the stream closed failed): only the renewals run.
    const release = await a.cluster.eventStore(session).claim!(GET_STREAM_ID, () => lost++);
    try {
      expect(release).toBeDefined();
      expect((await end(a.url, session)).status).toBe(200);
      // Several renewal ticks (one every third of the claim time).
      await pause(CLAIM_MS * 2);
      expect(await leftOf(cluster, session)).toEqual([]);
      // The holder hears that its claim is gone, as when another connection took it.
      expect(lost).toBe(1);
    } finally {
      release?.();
    }
  });
});
