import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startInstances, stopInstances, streamWatched, type Instance } from './fixtures/instances';
import { HEADERS, openGet, openRawSession, readSse, rpc } from './fixtures/sse';

/**
 * What Redis itself hands back, second pass: messages someone else publishes on the cluster's
 * channels (with publish access, not read access) and keys another writer left with another type
 * or malformed content. Two instances on one real redis-server; nothing is mocked.
 */
let runs = 0;
class Counter {
  @Tool({ description: 'Counts its runs.' }) count(@Param('n') n: number) {
    runs++;
    return `run ${n}`;
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'count', arguments: { n: id } } });
const log = (data: string) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });

describe('@toolwright/redis against forged messages and foreign keys', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    // Few events per session, so storing one trims the stream (and reads the sizes entries carry).
    instances = await startInstances(2, redis.url, { name: 'forged', version: '1', tools: [Counter], logger: silent }, {}, undefined, { maxEventsPerSession: 3 });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('runs no request published on a relay channel: only answers and cancellations are relayed', async () => {
    const { cluster, url } = instances[0];
    const session = await openRawSession(url);
    const p = cluster.prefix;
    const relays = (await cluster.redis.pubsub('CHANNELS', `${p}rt:*`)) as string[];
    expect(relays).toContain(`${p}rt:*`);
    const before = runs;
    for (const channel of relays) await cluster.redis.publish(channel, `${session}\n${JSON.stringify(call(77))}`);
    // Published after the forgery on the same connection: once this request is answered, the forged ones were heard.
    expect(await (await rpc(url, session, call(2))).text()).toContain('run 2');
    await new Promise((r) => setTimeout(r, 100));
    expect(runs - before).toBe(1);
  });

  it('closes no session on a forged `ended` message; a real end still closes its GET stream on every instance', async () => {
    const [a, b] = instances;
    const session = await openRawSession(a.url);
    const get = readSse(await openGet(a.url, session));
    await streamWatched(a, session);
    await a.cluster.redis.publish(`${a.cluster.prefix}ended`, session);
    await new Promise((r) => setTimeout(r, 100));
    await a.cluster.redis.publish(`${a.cluster.prefix}ev:${session}`, `other\n1-1\n${GET_STREAM_ID}\n${log('still open')}`);
    expect((await get.next()).data).toMatchObject({ params: { data: 'still open' } });
    const deleted = await fetch(b.url, { method: 'DELETE', headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(200);
    await expect(get.next()).rejects.toThrow('the SSE stream ended');
  });

  it('treats keys of another type as missing: the session goes on (or starts anew), and every other session still hears of changes', async () => {
    const [a, b] = instances;
    const { redis: r, prefix: p } = a.cluster;
    // Sessions in the order the broadcast visits them: the corrupted one first.
    const corrupted = await openRawSession(a.url);
    const listening = await openRawSession(a.url);
    await r.del(`${p}e:${corrupted}`, `${p}sub:${corrupted}`);
    await r.set(`${p}e:${corrupted}`, 'a string where a stream belongs');
    await r.set(`${p}sub:${corrupted}`, 'a string where a set belongs');
    const get = readSse(await openGet(b.url, listening));
    await streamWatched(b, listening);
    await a.cluster.publish({ list: 'tools' });
    await a.cluster.publish({ resourceUpdated: 'board://status' });
    expect((await get.next()).data).toMatchObject({ method: 'notifications/tools/list_changed' });
    await get.cancel();
    // The corrupted session itself is served: its events start again.
    expect(await (await rpc(b.url, corrupted, call(3))).text()).toContain('run 3');
    // A session record that is not a hash: that session is unknown (404, the client starts anew), not a 503 forever.
    const gone = await openRawSession(a.url);
    await r.del(`${p}s:${gone}`);
    await r.set(`${p}s:${gone}`, 'a string where a hash belongs');
    expect((await rpc(a.url, gone, call(4))).status).toBe(404);
    expect((await rpc(a.url, gone, call(5))).status).toBe(404);
    // The index of sessions of another type: new sessions are made all the same.
    await r.del(`${p}sessions`);
    await r.set(`${p}sessions`, 'a string where a sorted set belongs');
    expect(await (await rpc(a.url, await openRawSession(b.url), call(6))).text()).toContain('run 6');
  });

  it('trims a stream past an event whose size another writer left unreadable', async () => {
    const { cluster, url } = instances[0];
    const session = await openRawSession(url);
    const key = `${cluster.prefix}e:${session}`;
    await cluster.redis.xadd(key, '*', 's', GET_STREAM_ID, 'm', log('old'), 'n', 'not a number');
    for (let id = 10; id < 15; id++) {
      const response = await rpc(url, session, call(id));
      expect(`${response.status} ${await response.text()}`).toContain(`run ${id}`);
    }
    expect(await cluster.redis.xlen(key)).toBeLessThanOrEqual(3);
  });
});
