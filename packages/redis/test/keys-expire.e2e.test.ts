import 'reflect-metadata';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Param, Tool } from '@toolwright/core';
import { createOAuthServer } from '@toolwright/oauth';
import { RedisTaskStore, createRedisMiddlewareStores, createRedisOAuthStore, createRedisRequestStateStore, type RedisCluster } from '@toolwright/redis';
import { createApp, tasks, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTaskClient } from '@toolwright/server/testing';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startInstances, stopInstances, type Instance } from './fixtures/instances';
import { openRawSession, rpc } from './fixtures/sse';
import { QueueJobs } from '../../server/test/fixtures/queueJobs';
import { taskIdOf } from '../../server/test/fixtures/taskAnswers';

class Echo {
  @Tool({ description: 'Echoes.' }) echo(@Param('text') text: string) {
    return text;
  }
}

const silent = { debug() {}, info() {}, warn() {}, error() {} };
/** Every short-lived thing of the workload (idle sessions, tasks, round states) ends within this. */
const SHORT_MS = 800;
const ISSUER = 'http://localhost:8';
const CALLBACK = 'http://127.0.0.1:9/cb';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every key under the cluster's prefix (SCAN) with its PTTL: -1 is a key that never expires. */
async function keysOf(cluster: RedisCluster): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await cluster.redis.scan(cursor, 'MATCH', `${cluster.prefix}*`, 'COUNT', 1000);
    for (const key of keys) found.set(key.slice(cluster.prefix.length), await cluster.redis.pttl(key));
    cursor = next;
  } while (cursor !== '0');
  return found;
}

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/**
 * A workload on one prefix of a real redis-server (sessions opened and abandoned, with events,
 * subscriptions and `ctx.session`-less calls; queued and finished tasks; accepted round states;
 * rate-limit buckets and cached results; OAuth sign-ins, refreshes, revocations and an abandoned
 * authorization through the Redis OAuth store), then a scan of the prefix: every key left has a
 * TTL, and once the short-lived things have ended only the OAuth server's keys (grants live for
 * days) and rate-limit buckets (until they would be full again) are left.
 */
describe('every key the Redis package writes expires, or is deleted by its owner', () => {
  let redis: RedisServer;
  let instances: Instance[];
  let cluster: RedisCluster;
  let queueing: { app: App; handler: FetchHandler; store: RedisTaskStore };
  let working: { app: App; handler: FetchHandler; store: RedisTaskStore };
  const prefix = `ttl-${randomUUID().slice(0, 8)}:`;

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(2, redis.url, { name: 'ttl', version: '1', tools: [Echo] }, { sessions: { idleTimeoutMs: SHORT_MS } }, prefix);
    cluster = instances[0]!.cluster;
    const taskApp = async (worker: boolean) => {
      const store = new RedisTaskStore(cluster);
      const app = await createApp({ name: 'jobs', version: '1.0.0', tools: [QueueJobs], extensions: [tasks({ store, logger: silent, queue: true, worker, ttlMs: SHORT_MS })], logger: silent });
      const verifyToken = (token: string) => ({ token, clientId: 'web', scopes: [], extra: { sub: token } });
      const handler = createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined });
      return { app, handler, store };
    };
    queueing = await taskApp(false);
    working = await taskApp(true);
  });
  afterAll(async () => {
    for (const t of [queueing, working]) {
      if (!t) continue;
      await t.app.stop();
      await t.handler.close();
      await t.store.close();
    }
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  async function sessions(): Promise<void> {
    for (let i = 0; i < 6; i++) {
      const url = instances[i % 2]!.url;
      const session = await openRawSession(url);
      await (await rpc(url, session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: `hello ${i}` } } })).text();
      await (await rpc(instances[(i + 1) % 2]!.url, session, { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } })).text();
      // Abandoned: never DELETEd.
    }
  }

  async function taskWorkload(): Promise<void> {
    const asAlice = (handler: FetchHandler) => createTaskClient({ fetch: handler }, { headers: { authorization: 'Bearer alice' } });
    // Queued with no worker to take them: they wait in the queue until they expire.
    for (let i = 0; i < 3; i++) taskIdOf(await asAlice(queueing.handler).call('hold'));
    // Queued and run by a worker.
    for (let i = 0; i < 3; i++) taskIdOf(await asAlice(working.handler).call('quick', { n: i }));
  }

  async function roundStates(): Promise<void> {
    const used = createRedisRequestStateStore(cluster);
    for (let i = 0; i < 3; i++) expect(await used.claim(randomUUID(), Date.now() + SHORT_MS)).toBe(true);
  }

  async function middleware(): Promise<void> {
    const stores = createRedisMiddlewareStores(cluster);
    for (let i = 0; i < 3; i++) await stores.rateLimit.take!(`caller-${i}:Echo.echo`, { capacity: 5, refillPerSecond: 50, now: Date.now() });
    await stores.rateLimit.set(`caller-set:Echo.echo`, { tokens: 2, updatedAt: Date.now() });
    for (let i = 0; i < 3; i++) await stores.cache.set(`caller-${i}:Echo.echo:{}`, { value: { text: 'cached' }, expiresAt: Date.now() + SHORT_MS });
  }

  async function oauthWorkload(): Promise<void> {
    const oauth = await createOAuthServer({
      issuer: ISSUER,
      resource: `${ISSUER}/mcp`,
      store: createRedisOAuthStore(cluster),
      consent: false,
      signIn: (request) => (new URL(request.url).searchParams.get('state') === 'abandon' ? new Response('log in first') : { subject: 'ada' }),
      rateLimit: { store: createRedisMiddlewareStores(cluster).rateLimit, clientAddressOf: () => '203.0.113.7' },
      accessTokenTtlSeconds: 60,
    });
    const call = async (path: string, init: RequestInit = {}) => (await oauth.handle(new Request(`${ISSUER}${path}`, { redirect: 'manual', ...init })))!;
    const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
    const registered = await call('/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: [CALLBACK], grant_types: ['authorization_code', 'refresh_token'], token_endpoint_auth_method: 'none' }),
    });
    expect(registered.status).toBe(201);
    const clientId = ((await registered.json()) as { client_id: string }).client_id;
    const signIn = async (state: string) => {
      const verifier = base64url(randomBytes(32));
      const challenge = base64url(createHash('sha256').update(verifier).digest());
      const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: CALLBACK, code_challenge: challenge, code_challenge_method: 'S256', state });
      const answer = await call(`/authorize?${query}`);
      return { answer, verifier };
    };
    for (let i = 0; i < 2; i++) {
      const { answer, verifier } = await signIn(`s${i}`);
      expect(answer.status).toBe(302);
      const code = new URL(answer.headers.get('location')!).searchParams.get('code')!;
      const tokens = (await (await call('/token', form({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: CALLBACK, client_id: clientId }))).json()) as {
        refresh_token: string;
      };
      const refreshed = (await (await call('/token', form({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: clientId }))).json()) as { refresh_token: string };
      expect(refreshed.refresh_token).toMatch(/^twr_/);
      if (i === 1) expect((await call('/revoke', form({ token: refreshed.refresh_token, client_id: clientId }))).status).toBe(200);
    }
    expect((await signIn('abandon')).answer.status).toBe(200);
  }

  it('leaves no key without a TTL, and nothing of the short-lived things once they have ended', async () => {
    await sessions();
    await taskWorkload();
    await roundStates();
    await middleware();
    await oauthWorkload();

    const during = await keysOf(cluster);
    for (const family of ['s:', 'e:', 'sessions', 'o:', 'eb', 'task:', 'task-queue', 'task-working', 'task-open', 'rs:', 'rl:', 'cache:', 'oauth:grant:', 'oauth:rt:', 'oauth:signin:']) {
      expect([...during.keys()].filter((key) => key.startsWith(family)).length).toBeGreaterThan(0);
    }
    expect([...during].filter(([, ttl]) => ttl < 0).map(([key]) => key)).toEqual([]);

    await pause(SHORT_MS + 400);
    const after = await keysOf(cluster);
    expect([...after].filter(([, ttl]) => ttl < 0).map(([key]) => key)).toEqual([]);
    // Sign-ins, grants and their tokens live for minutes to days; rate-limit buckets until full again.
    expect([...after.keys()].filter((key) => !key.startsWith('oauth:') && !key.startsWith('rl:'))).toEqual([]);
  });
});
