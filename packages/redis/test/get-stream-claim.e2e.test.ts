import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { Param, Tool } from '@toolwright/core';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually, startInstances, stopInstances, streamWatched, type Instance } from './fixtures/instances';
import { startFetchInstances, type FetchInstance } from './fixtures/fetchInstances';
import { openGet, openRawSession, readSse } from './fixtures/sse';

class Echo {
  @Tool({ description: 'Echoes.' }) echo(@Param('text') text: string) {
    return text;
  }
}

const CLAIM_MS = 600;
const app = { name: 'claims', version: '1', tools: [Echo] };

/** The status and body of a refused GET, to compare with the single-instance answer. */
async function refusal(response: Response): Promise<{ status: number; body: unknown }> {
  return { status: response.status, body: await response.json() };
}

const end = (url: string, session: string) => fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });

/** An instance of the app in a process of its own (fixtures/stream-holder.js, on the built packages), to be killed. */
async function processInstance(redisUrl: string, prefix: string, claimMs: number, idleMs?: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'stream-holder.js')], {
    env: { ...process.env, REDIS_URL: redisUrl, PREFIX: prefix, CLAIM_MS: String(claimMs), ...(idleMs && { IDLE_MS: String(idleMs) }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`fixtures/stream-holder.js exited with ${code}`)));
  });
  return { child, url };
}

/** Opens the session's GET stream on `url`, retrying while it is refused with 409 (a claim given back asynchronously). */
async function openGetWhenFree(url: string, session: string, ms: number): Promise<Response> {
  let response: Response | undefined;
  await eventually(
    async () => {
      response = await openGet(url, session);
      if (response.status === 200) return true;
      await response.body?.cancel();
      return false;
    },
    ms,
    `a GET stream of ${session} on ${url}`,
  );
  return response!;
}

describe('one GET stream per 2025-11-25 session across the cluster (node listener)', () => {
  let redis: RedisServer;
  let instances: Instance[];
  let urls: string[];
  const prefix = `claim-${randomUUID().slice(0, 8)}:`;
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(2, redis.url, app, {}, prefix, { getStreamClaimMs: CLAIM_MS });
    urls = instances.map((i) => i.url);
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('refuses a second GET stream on another instance with the single-instance 409; either instance takes one once it closed', async () => {
    const session = await openRawSession(urls[0]);
    const first = await openGet(urls[0], session);
    expect(first.status).toBe(200);
    const local = await refusal(await openGet(urls[0], session));
    expect(local).toEqual({
      status: 409,
      body: { jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session. Close the other GET stream first.' }, id: null },
    });
    expect(await refusal(await openGet(urls[1], session))).toEqual(local);

    await first.body!.cancel();
    const second = await openGetWhenFree(urls[1], session, 3000);
    expect(await refusal(await openGet(urls[0], session))).toEqual(local);
    await second.body!.cancel();
    (await openGetWhenFree(urls[0], session, 3000)).body!.cancel();
  });

  it('sends a cluster notification on the one GET stream only', async () => {
    const session = await openRawSession(urls[0]);
    const stream = readSse(await openGet(urls[1], session));
    expect((await openGet(urls[0], session)).status).toBe(409);
    await instances[0].cluster.publish({ list: 'tools' });
    expect((await stream.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await stream.cancel();
  });

  it('refuses to resume the GET stream on another instance while it is open, as one instance does', async () => {
    const session = await openRawSession(urls[0]);
    const stream = readSse(await openGet(urls[0], session));
    await instances[1].cluster.publish({ list: 'prompts' });
    const { id } = await stream.next();
    const local = await refusal(await openGet(urls[0], session, id));
    expect(local).toEqual({ status: 409, body: { jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Stream already has an active connection. Close it before resuming.' }, id: null } });
    expect(await refusal(await openGet(urls[1], session, id))).toEqual(local);
    await stream.cancel();
  });

  /** An instance that holds a session's GET stream, then crashes as Redis sees it: its command connection drops at once, so it neither renews nor gives back its claim. */
  async function crashWhileHolding(claimMs: number, beforeCrash: (session: string, claimKey: string) => Promise<void> = async () => {}): Promise<{ session: string }> {
    const [doomed] = await startInstances(1, redis.url, app, {}, prefix, { getStreamClaimMs: claimMs });
    const session = await openRawSession(urls[0]);
    expect((await openGet(doomed.url, session)).status).toBe(200);
    await beforeCrash(session, `${prefix}gs:${session}`);
    doomed.cluster.redis.disconnect();
    await doomed.listener.close();
    await doomed.cluster.close();
    return { session };
  }

  it('takes over the GET stream of a session at once when the instance holding it dies (Redis dropped its connections)', async () => {
    const HELD_MS = 60_000;
    const { session } = await crashWhileHolding(HELD_MS, async (id) => expect((await openGet(urls[1], id)).status).toBe(409));
    // Taken over because the holder is gone, not because its claim expired: that would take HELD_MS. The wait is
    // bounded by a quarter of it, which no load reaches; the bound is on the clock because the claim's expiry is too.
    const taken = await openGetWhenFree(urls[1], session, HELD_MS / 4);
    await taken.body!.cancel();
  });

  it("lets a GET stream open within the claim time when the dead holder's connections linger (a host gone without closing them)", async () => {
    const lingering = instances[0].cluster.redis.duplicate();
    try {
      await lingering.connect();
      const { session } = await crashWhileHolding(CLAIM_MS, async (id, claimKey) => {
        const held = (await instances[0].cluster.redis.get(claimKey))!;
        // Its liveness channel stays listened on, as Redis would see a connection it has not noticed is dead.
        await lingering.subscribe(held.slice(held.indexOf('\n') + 1));
        // Renewed meanwhile: still held after several claim times.
        await new Promise((r) => setTimeout(r, CLAIM_MS * 2));
        expect((await openGet(urls[1], id)).status).toBe(409);
      });
      // No longer renewed, the claim expires a claim time after the crash; a lingering connection that kept it
      // would keep it for ever. The bound is on the clock because the claim's expiry is, and ten claim times
      // leave room for a loaded machine.
      const taken = await openGetWhenFree(urls[1], session, CLAIM_MS * 10);
      await taken.body!.cancel();
    } finally {
      lingering.disconnect();
    }
  });
});

describe("a session's GET stream claim at session end and when its holder is killed", () => {
  const LEASE_MS = 60_000;
  let redis: RedisServer;
  let instances: Instance[];
  let urls: string[];
  const prefix = `claim-end-${randomUUID().slice(0, 8)}:`;
  const claimed = (session: string) => instances[0].cluster.redis.exists(`${prefix}gs:${session}`);
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(2, redis.url, app, {}, prefix, { getStreamClaimMs: LEASE_MS });
    urls = instances.map((i) => i.url);
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  /** A session opened on `on`, whose GET stream an instance in a process of its own holds until it is killed with SIGKILL. */
  async function killWhileHolding(on: string, idleMs?: number): Promise<{ session: string }> {
    const holder = await processInstance(redis.url, prefix, LEASE_MS, idleMs);
    try {
      const session = await openRawSession(on);
      const stream = await openGet(holder.url, session);
      expect(stream.status).toBe(200);
      expect(await refusal(await openGet(on, session))).toMatchObject({ status: 409 });
      const exited = new Promise((resolve) => holder.child.once('exit', resolve));
      holder.child.kill('SIGKILL');
      await exited;
      await stream.body!.cancel().catch(() => {});
      return { session };
    } finally {
      holder.child.kill('SIGKILL');
    }
  }

  it('a second instance takes over the GET stream of an instance killed with SIGKILL, well within the lease, and sends the session its messages', async () => {
    const { session } = await killWhileHolding(urls[0]);
    // Well within the lease: a claim that had to expire would take LEASE_MS. The wait is bounded by a quarter of
    // it, which no load reaches; the bound is on the clock because the lease is.
    const stream = readSse(await openGetWhenFree(urls[1], session, LEASE_MS / 4));
    await streamWatched(instances[1], session);
    await instances[0].cluster.publish({ list: 'tools' });
    expect((await stream.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(await refusal(await openGet(urls[0], session))).toMatchObject({ status: 409 });
    await stream.cancel();
  });

  it("ending a session deletes the claim of the instance ending it in the same script; another live instance's claim stays until it gives it back", async () => {
    const [a, b] = instances.map((i) => i.cluster);
    const mine = await openRawSession(urls[0]);
    const theirs = await openRawSession(urls[0]);
    // Claimed as for a GET stream, and not given back: the end alone has to drop it.
    const releases = [await a.eventStore(mine).claim!(GET_STREAM_ID, () => {}), await b.eventStore(theirs).claim!(GET_STREAM_ID, () => {})];
    try {
      await a.sessions.end(mine);
      await a.sessions.end(theirs);
      expect(await claimed(mine)).toBe(0);
      expect(await claimed(theirs)).toBe(1);
    } finally {
      for (const release of releases) release?.();
    }
    await eventually(async () => (await claimed(theirs)) === 0, 2000, 'the live holder to give its claim back');
  });

  it('a DELETE on another instance deletes the claim of the killed instance that held the GET stream, and nothing of the session is left', async () => {
    const { session } = await killWhileHolding(urls[0]);
    expect(await claimed(session)).toBe(1);
    expect((await end(urls[1], session)).status).toBe(200);
    // Nothing of the session is left in Redis, nor listened for.
    expect(await instances[0].cluster.redis.keys(`${prefix}*${session}*`)).toEqual([]);
    await streamWatched(instances[0], session, false);
    await streamWatched(instances[1], session, false);
  });

  it('a session that expired while the holder of its GET stream was dead loses the claim when the cluster sweeps it', async () => {
    const [short] = await startInstances(1, redis.url, app, { sessions: { idleTimeoutMs: 1000 } }, prefix, { getStreamClaimMs: LEASE_MS });
    try {
      const { session } = await killWhileHolding(short.url, 1000);
      await eventually(async () => (await short.cluster.redis.exists(`${prefix}s:${session}`)) === 0, 5000, 'the session to expire');
      expect(await claimed(session)).toBe(1);
      // Opening a session sweeps the expired ones.
      await openRawSession(short.url);
      expect(await claimed(session)).toBe(0);
    } finally {
      await stopInstances([short]);
    }
  });
});

describe('one GET stream per 2025-11-25 session across the cluster (fetch handler)', () => {
  let redis: RedisServer;
  let instances: FetchInstance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startFetchInstances(2, redis.url, `claim-${randomUUID().slice(0, 8)}:`, app, {}, { getStreamClaimMs: CLAIM_MS });
  });
  afterAll(async () => {
    for (const instance of instances ?? []) await instance.close();
    await redis?.close();
  });

  it("refuses a second GET stream, or resuming it, on another instance with the SDK's own 409", async () => {
    const [a, b] = instances.map((i) => i.url);
    const session = await openRawSession(a);
    const stream = readSse(await openGet(a, session));
    const local = await refusal(await openGet(a, session));
    expect(local).toEqual({ status: 409, body: { jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Only one SSE stream is allowed per session' }, id: null } });
    expect(await refusal(await openGet(b, session))).toEqual(local);

    await instances[1].cluster.publish({ list: 'tools' });
    const { id } = await stream.next();
    const resumed = await refusal(await openGet(a, session, id));
    expect(resumed).toEqual({ status: 409, body: { jsonrpc: '2.0', error: { code: -32000, message: 'Conflict: Stream already has an active connection' }, id: null } });
    expect(await refusal(await openGet(b, session, id))).toEqual(resumed);

    await stream.cancel();
    (await openGetWhenFree(b, session, 3000)).body!.cancel();
  });
});
