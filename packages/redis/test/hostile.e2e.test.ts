import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import type { Redis } from 'ioredis';
import { RedisTaskStore, createRedisCluster, createRedisMiddlewareStores, type RedisCluster } from '@toolwright/redis';
import { createApp, tasks, TASKS_EXTENSION_ID } from '@toolwright/server';
import { GET_STREAM_ID, type HttpListener } from '@toolwright/server/http';
import { cache } from '@toolwright/server/middleware';
import { createFetchHandler } from '@toolwright/server/fetch';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { unhandledRejectionsDuring } from './fixtures/unhandledRejectionsDuring';
import { connectRoundRobin, eventually, startInstances, stopInstances, textOf, type Instance } from './fixtures/instances';
import { HEADERS, openGet, openRawSession, readSse, rpc } from './fixtures/sse';
import { modernRequest } from '../../server/test/fixtures/modernRequest';

/**
 * Hostile input and failures against a real redis-server: session ids and Last-Event-IDs a client
 * makes up get the answers the in-memory stores give and never become keys; whatever another
 * (compromised, older) instance writes to Redis or publishes on the cluster's channels crashes no
 * reader; Redis out of memory gets a 503 that says so, and serving resumes when it has room.
 */
class Echo {
  @Tool({ description: 'Echoes.' }) echo(@Param('text') text: string) {
    return text;
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const call = (id: number, text = `t${id}`) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text } } });

/** Status and JSON-RPC code of an answer: what must match between the Redis and the in-memory stores. */
async function outcome(response: Response): Promise<string> {
  const text = await response.text();
  let code: unknown;
  try {
    code = (JSON.parse(text) as { error?: { code?: number } }).error?.code;
  } catch {
    code = 'no json';
  }
  return `${response.status} ${String(code)}`;
}

describe('@toolwright/redis under hostile input', () => {
  let redis: RedisServer;
  let instances: Instance[];
  let memory: HttpListener;
  const logged: string[] = [];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(1, redis.url, { name: 'hostile', version: '1', tools: [Echo], logger: silent }, {}, undefined, {
      commandTimeoutMs: 1000,
      logWrite: (line) => void logged.push(line),
    });
    const app = await createApp({ name: 'hostile', version: '1', tools: [Echo], logger: silent });
    memory = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
  });
  afterAll(async () => {
    await memory?.close();
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('answers made-up session ids as the in-memory store does, and none of them becomes a key or touches a counter', async () => {
    const { cluster, url } = instances[0];
    const real = await openRawSession(url);
    const p = cluster.prefix;
    // A stand-in total of the event bytes: a session id '' once reset it (the counter's field is '').
    await cluster.redis.hset(`${p}eb`, '', '12345');
    const before = (await cluster.redis.keys(`${p}*`)).sort();
    const ids = ['', '*', '?', '[a-z]*', `${real}*`, `${real.slice(0, 8)}?`, 'a:b', `{${real}}`, '__proto__', 'constructor', 'toString', 'hasOwnProperty', 'sessions', 'x'.repeat(8000), 'é', '\t'];
    for (const id of ids) {
      for (const method of ['POST', 'GET', 'DELETE'] as const) {
        const init = {
          method,
          headers: { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25', ...(method === 'GET' && { accept: 'text/event-stream' }) },
          ...(method === 'POST' && { body: JSON.stringify(call(1)) }),
        };
        const [shared, local] = await Promise.all([fetch(url, init).then(outcome), fetch(memory.url, init).then(outcome)]);
        expect(`${JSON.stringify(id.slice(0, 20))} ${method}: ${shared}`).toBe(`${JSON.stringify(id.slice(0, 20))} ${method}: ${local}`);
      }
    }
    expect((await cluster.redis.keys(`${p}*`)).sort()).toEqual(before);
    expect(await cluster.redis.hget(`${p}eb`, '')).toBe('12345');
    // The real session is untouched.
    expect(await (await rpc(url, real, call(2))).text()).toContain('"t2"');
  });

  it('answers a Last-Event-ID that can be no stream id as the in-memory store does (400), not as a failing Redis', async () => {
    const { url } = instances[0];
    const shared = await openRawSession(url);
    const local = await openRawSession(memory.url);
    for (const lastEventId of ['99999999999999999999999-0', '18446744073709551616-0', '0-18446744073709551616', '-', '+', '$', '>', '0-0', `1-${'9'.repeat(500)}`]) {
      const [a, b] = await Promise.all([openGet(url, shared, lastEventId).then(outcome), openGet(memory.url, local, lastEventId).then(outcome)]);
      expect(`${lastEventId.slice(0, 30)}: ${a}`).toBe(`${lastEventId.slice(0, 30)}: ${b}`);
      expect(a).toBe('400 -32000');
    }
  });

  it('drops malformed messages on every cluster channel without crashing, and keeps hearing good ones', async () => {
    const { cluster, url } = instances[0];
    const { client } = await connectRoundRobin([url]);
    const session = await openRawSession(url);
    const get = readSse(await openGet(url, session));
    await eventually(async () => ((await cluster.redis.pubsub('CHANNELS', `${cluster.prefix}ev:${session}`)) as string[]).length > 0, 3000, 'the GET stream watched');
    const crashes: unknown[] = [];
    const onCrash = (error: unknown) => void crashes.push(error);
    process.on('uncaughtException', onCrash);
    try {
      const p = cluster.prefix;
      const relays = (await cluster.redis.pubsub('CHANNELS', `${p}rt:*`)) as string[];
      expect(relays.length).toBeGreaterThan(0);
      const garbage = ['', 'no newline', 'x\nnot json', 'x\nnull', 'x\n5', 'x\n[]', 'x\n{"list":"__proto__"}', 'x\n{"resourceUpdated":5}', 'x\ny\nz\n{"jsonrpc":"2.0"}', 'x\n1-1\nGET\n"str"'];
      const channels = [`${p}changes`, `${p}ended`, `${p}ev:${session}`, ...relays];
      for (const channel of channels) for (const payload of garbage) await cluster.redis.publish(channel, payload);
      // A good change published after the garbage still reaches the open GET stream: the subscriber survived.
      await cluster.redis.publish(
        `${p}ev:${session}`,
        `other\n1-1\n${GET_STREAM_ID}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'still here' } })}`,
      );
      const event = await get.next();
      expect(event.data).toMatchObject({ params: { data: 'still here' } });
      expect(crashes).toEqual([]);
      expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'alive' } }))).toBe('alive');
      expect(await (await rpc(url, session, call(3))).text()).toContain('"t3"');
      expect(logged.some((line) => line.includes('malformed message'))).toBe(true);
    } finally {
      process.off('uncaughtException', onCrash);
      await get.cancel();
      await client.close();
    }
  });

  it('treats a session whose record another instance wrote malformed as ended (404), and the client starts anew', async () => {
    const { cluster, url } = instances[0];
    for (const rec of ['not json', '5', 'null', '{"initialize":"x","protocolVersion":"2025-11-25","principal":null}', '{"initialize":{},"protocolVersion":7,"principal":null}']) {
      const session = await openRawSession(url);
      await cluster.redis.hset(`${cluster.prefix}s:${session}`, 'rec', rec);
      const response = await rpc(url, session, call(4));
      expect(`${rec}: ${await outcome(response)}`).toBe(`${rec}: 404 -32001`);
    }
    expect(logged.some((line) => line.includes('malformed record'))).toBe(true);
    const fresh = await openRawSession(url);
    expect(await (await rpc(url, fresh, call(5))).text()).toContain('"t5"');
  });

  it('skips a stored event that is not a JSON-RPC message when replaying, instead of failing the replay', async () => {
    const { cluster, url } = instances[0];
    const session = await openRawSession(url);
    const key = `${cluster.prefix}e:${session}`;
    const event = (data: string) => JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data } });
    const seen = await cluster.redis.xadd(key, '*', 's', GET_STREAM_ID, 'm', event('seen'), 'n', '10');
    for (const bad of ['not json', 'null', '5', '"text"']) await cluster.redis.xadd(key, '*', 's', GET_STREAM_ID, 'm', bad, 'n', '8');
    await cluster.redis.xadd(key, '*', 's', GET_STREAM_ID, 'm', event('kept'), 'n', '10');
    const response = await openGet(url, session, seen!);
    expect(response.status).toBe(200);
    const replay = readSse(response);
    expect((await replay.next()).data).toMatchObject({ params: { data: 'kept' } });
    await replay.cancel();
  });

  it('fails a ctx.session read of a malformed value with a clear message, and serves the cache past a malformed entry', async () => {
    const cluster = instances[0].cluster;
    const session = await openRawSession(instances[0].url);
    await cluster.redis.hset(`${cluster.prefix}st:${session}`, 'count', '{broken');
    await expect(cluster.sessionState(session).get('count')).rejects.toThrow(/ctx\.session: the value of 'count' in Redis is not valid JSON/);
    // A cached result another instance wrote malformed is a miss: the member runs, its result replaces the entry.
    class Lookup {
      @Tool({ description: 'Looks up.', annotations: { readOnlyHint: true } }) look(@Param('city') city: string) {
        return `found ${city}`;
      }
    }
    const { cache: store } = createRedisMiddlewareStores(cluster);
    const app = await createApp({ name: 'cached', version: '1', tools: [Lookup], middleware: [cache({ ttlMs: 60_000, store })], logger: silent });
    const listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    const { client } = await connectRoundRobin([listener.url]);
    try {
      const look = async () => client.callTool({ name: 'look', arguments: { city: 'Oslo' } }) as Promise<{ isError?: boolean; content: { text?: string }[] }>;
      expect(textOf(await look())).toBe('found Oslo');
      const [key] = (await cluster.redis.keys(`${cluster.prefix}cache:*`)) as string[];
      expect(key).toBeDefined();
      for (const bad of ['not json', 'null', '5', '[]', '{"value":1}']) {
        await cluster.redis.set(key, bad);
        const result = await look();
        expect(`${bad}: ${String(result.isError ?? false)} ${textOf(result)}`).toBe(`${bad}: false found Oslo`);
        expect(await cluster.redis.get(key)).toContain('found Oslo');
      }
      // A key of another type there (WRONGTYPE for GET) is a miss too, and the result replaces it.
      await cluster.redis.del(key);
      await cluster.redis.hset(key, 'value', 'not an entry');
      const result = await look();
      expect(`${String(result.isError ?? false)} ${textOf(result)}`).toBe('false found Oslo');
      expect(await cluster.redis.get(key)).toContain('found Oslo');
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

describe('RedisTaskStore on a cluster connection, with hostile task ids and values', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  let store: RedisTaskStore;
  let other: RedisTaskStore;
  beforeAll(async () => {
    redis = await startRedisServer({ persist: true });
    cluster = await createRedisCluster({ url: redis.url, prefix: 'tasks-hostile:', logWrite: () => {} });
    store = new RedisTaskStore(cluster);
    other = new RedisTaskStore(cluster);
  });
  afterAll(async () => {
    await store?.close();
    await other?.close();
    await cluster?.close();
    await redis?.close();
  });

  it('hears cancels when made from a cluster (whose connection has no offline queue)', async () => {
    const heard: string[] = [];
    store.onCancel((id) => heard.push(id));
    // A cancel is heard for a task cancelled in Redis (as tasks/cancel leaves it before publishing).
    const now = new Date().toISOString();
    await other.create({ taskId: 't1', owner: '', status: 'cancelled', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 100, expiresAt: Date.now() + 60_000, tool: 'x' });
    // The subscription is made asynchronously: publish until it is heard.
    await eventually(
      async () => {
        await other.publishCancel('t1');
        return heard.includes('t1');
      },
      3000,
      'the cancel to be heard',
    );
  });

  it('closes its cancel subscriber while it reconnects (Redis just back) without an unhandled rejection', async () => {
    const third = new RedisTaskStore(cluster);
    const heard: string[] = [];
    third.onCancel((id) => heard.push(id));
    const now = new Date().toISOString();
    await other.create({ taskId: 't2', owner: '', status: 'cancelled', createdAt: now, lastUpdatedAt: now, ttlMs: 60_000, pollIntervalMs: 100, expiresAt: Date.now() + 60_000, tool: 'x' });
    await eventually(
      async () => {
        await other.publishCancel('t2');
        return heard.includes('t2');
      },
      3000,
      'the cancel to be heard',
    );
    // Closed between its reconnection's ready check (INFO, sent) and the answer: what a close() right after Redis came back meets.
    const subscriber = (third as unknown as { subscriber: { status: Redis['status']; _readyCheck(callback: unknown): void } }).subscriber;
    const readyCheck = subscriber._readyCheck.bind(subscriber);
    let closed: Promise<void> | undefined;
    subscriber._readyCheck = (callback) => {
      readyCheck(callback);
      closed ??= third.close();
    };
    try {
      const unhandled = await unhandledRejectionsDuring(async () => {
        await redis.stop();
        await redis.start();
        await eventually(() => closed !== undefined && subscriber.status === 'end', 5000, 'the subscriber closed');
        await closed;
      });
      expect(unhandled).toEqual([]);
    } finally {
      await eventually(() => cluster.connected, 5000, 'reconnection');
    }
  });

  it('answers a malformed or foreign task with a clear error, an overlong id as unknown, and keeps serving', async () => {
    class Jobs {
      @Tool({ description: 'Answers at once.', task: true }) quick(@Param('n') n: number) {
        return `quick ${n}`;
      }
    }
    const app = await createApp({
      name: 'jobs',
      version: '1',
      tools: [Jobs],
      extensions: [tasks({ store, logger: silent })],
      requestState: { keys: ['a shared key of at least thirty-two bytes!'] },
      logger: silent,
    });
    const handler = createFetchHandler(app, { logError: () => undefined });
    const declaring = { extensions: { [TASKS_EXTENSION_ID]: {} } };
    const raw = (method: string, params: Record<string, unknown>) => modernRequest(handler, method, params, { capabilities: declaring });
    try {
      for (const [taskId, value] of [
        ['bad-json', 'not json'],
        ['bad-null', 'null'],
        ['bad-type', '{"taskId":"bad-type","owner":"","status":5}'],
        ['bad-status', JSON.stringify({ taskId: 'bad-status', owner: '', status: 'exploded', expiresAt: 1, ttlMs: 1, pollIntervalMs: 1, createdAt: '', lastUpdatedAt: '', tool: 'quick' })],
      ]) {
        await cluster.redis.set(`tasks-hostile:task:${taskId}`, value, 'PX', 60_000);
        const error = (await raw('tasks/get', { taskId }).catch((e: unknown) => e)) as Error & { code?: number };
        expect(error.code).toBe(-32603);
        expect(error.message).toMatch(/^-32603 @toolwright\/redis: task .* in Redis is malformed/);
        expect(error.message).not.toMatch(/\n\s+at /);
      }
      const long = 'x'.repeat(5000);
      await expect(raw('tasks/get', { taskId: long })).rejects.toMatchObject({ code: -32602 });
      const { taskId } = await raw('tools/call', { name: 'quick', arguments: { n: 1 } });
      expect(((await raw('tasks/get', { taskId })) as { status?: string }).status).toBeDefined();
      // Redis gone: the client is told the store is unavailable (not only "Internal error"); served again once it is back.
      await redis.stop();
      await expect(raw('tasks/get', { taskId })).rejects.toMatchObject({ code: -32603, message: expect.stringMatching(/^-32603 Redis is unreachable: /) as unknown });
      await redis.start();
      await eventually(() => cluster.connected, 5000, 'reconnection');
      expect(((await raw('tasks/get', { taskId })) as { status?: string }).status).toBeDefined();
    } finally {
      await handler.close();
    }
  });
});

describe('Redis out of memory under a live server', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(1, redis.url, { name: 'oom', version: '1', tools: [Echo], logger: silent }, {}, undefined, { commandTimeoutMs: 1000 });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('answers 503 saying Redis refused (out of memory), no stack or address, and serves again once Redis has room', async () => {
    const { cluster, url } = instances[0];
    const session = await openRawSession(url);
    await cluster.redis.config('SET', 'maxmemory-policy', 'noeviction');
    await cluster.redis.config('SET', 'maxmemory', '1');
    try {
      for (const response of [
        await rpc(url, session, call(1)),
        await rpc(url, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
      ]) {
        expect(response.status).toBe(503);
        const body = (await response.json()) as { error: { code: number; message: string } };
        expect(body.error.code).toBe(-32000);
        expect(body.error.message).toMatch(
          /^Service unavailable: the (shared session store is unreachable|event store failed to store this stream's first event) \(Redis refused the command: OOM command not allowed when used memory > 'maxmemory'\.?\)\. Retry shortly(; no session was lost)?\.$/,
        );
        expect(body.error.message).not.toContain('127.0.0.1');
      }
    } finally {
      await cluster.redis.config('SET', 'maxmemory', '0');
    }
    expect(await (await rpc(url, session, call(2))).text()).toContain('"t2"');
    const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(call(3)) });
    expect(response.status).toBe(200);
  });
});
