import 'reflect-metadata';
import { Tool, type AuthInfo } from '@toolwright/core';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually, startInstances, stopInstances } from './fixtures/instances';
import { HEADERS } from './fixtures/sse';

/**
 * Issue 31, item 1, across a cluster: each principal has its own share of sessions (one more
 * ends its own least recently used, on every instance), the total only refuses, and a request
 * naming another principal's session keeps it alive no longer.
 */
class Ping {
  @Tool({ description: 'Pong.' }) ping() {
    return 'pong';
  }
}

const verifyToken = (token: string): AuthInfo => ({ token, clientId: 'client', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token } });
const auth = { verifyToken, authorizationServers: ['https://auth.example.com'] };
const bearer = (who: string) => ({ authorization: `Bearer ${who}` });
const list = { jsonrpc: '2.0', id: 9, method: 'tools/list' };
const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };

function initializeAs(url: string, who: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { ...HEADERS, ...bearer(who) }, body: JSON.stringify(initialize) });
}

async function openAs(url: string, who: string): Promise<string> {
  const response = await initializeAs(url, who);
  if (response.status !== 200) throw new Error(`initialize answered ${response.status}: ${await response.text()}`);
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

async function statusAs(url: string, session: string, who: string): Promise<number> {
  const response = await fetch(url, { method: 'POST', headers: { ...HEADERS, ...bearer(who), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, body: JSON.stringify(list) });
  await response.text();
  return response.status;
}

describe('session limits per principal across the cluster (issue 31, item 1)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(() => redis?.close());

  it("a principal opening sessions past its share ends its own oldest everywhere, never another principal's", async () => {
    const instances = await startInstances(2, redis.url, { name: 'share', version: '1', tools: [Ping] }, { auth, sessions: { maxSessions: 10, maxSessionsPerPrincipal: 4, initializeRate: false } });
    try {
      const [a, b] = instances;
      const alice = await openAs(a.url, 'alice');
      const mallory: string[] = [];
      for (let i = 0; i < 12; i++) mallory.push(await openAs((i % 2 === 0 ? a : b).url, 'mallory'));
      expect(await statusAs(b.url, alice, 'alice')).toBe(200);
      expect(await statusAs(a.url, alice, 'alice')).toBe(200);
      await eventually(async () => (await statusAs(a.url, mallory[0], 'mallory')) === 404, 3000, "mallory's oldest session to be ended on A");
      expect(await statusAs(b.url, mallory[1], 'mallory')).toBe(404);
      expect(await statusAs(b.url, mallory[11], 'mallory')).toBe(200);
      expect(await a.cluster.redis.zcard(`${a.cluster.prefix}sessions`)).toBe(5);
    } finally {
      await stopInstances(instances);
    }
  });

  it('once the cluster holds maxSessions, initialize gets 503 with Retry-After on any instance and no session is ended', async () => {
    const instances = await startInstances(2, redis.url, { name: 'full', version: '1', tools: [Ping] }, { auth, sessions: { maxSessions: 2, initializeRate: false } });
    try {
      const [a, b] = instances;
      const first = await openAs(a.url, 'a');
      const second = await openAs(b.url, 'b');
      const refused = await initializeAs(a.url, 'c');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await refused.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining('sessions.maxSessions') } });
      expect(await statusAs(b.url, first, 'a')).toBe(200);
      expect(await statusAs(a.url, second, 'b')).toBe(200);
    } finally {
      await stopInstances(instances);
    }
  });

  it("a request naming another principal's session gets 404 and does not push back its expiry", async () => {
    const instances = await startInstances(2, redis.url, { name: 'foreign', version: '1', tools: [Ping] }, { auth, sessions: { idleTimeoutMs: 1000, initializeRate: false } });
    try {
      const [a, b] = instances;
      const alice = await openAs(a.url, 'alice');
      const key = `${a.cluster.prefix}s:${alice}`;
      // Mallory names Alice's session on both instances, over and over, until its record has expired in Redis.
      await eventually(
        async () => {
          expect(await statusAs(b.url, alice, 'mallory')).toBe(404);
          expect(await statusAs(a.url, alice, 'mallory')).toBe(404);
          return (await a.cluster.redis.exists(key)) === 0;
        },
        10_000,
        "Alice's idle session to expire while Mallory names it",
      );
      expect(await statusAs(b.url, alice, 'alice')).toBe(404);
    } finally {
      await stopInstances(instances);
    }
  });
});
