import 'reflect-metadata';
import type { AuthInfo } from '@toolwright/core';
import { SubscriptionBoard } from '../../server/test/fixtures/subscriptionBoard';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually, startInstances, stopInstances, type Instance } from './fixtures/instances';
import { HEADERS } from './fixtures/sse';

/**
 * Issue 31, item 3, across a cluster: a subscription is recorded in Redis only once the
 * instance's server accepted it (existence, scopes, guards, no control characters), as a set
 * capped per session whichever instances the subscriptions came through.
 */
const verifyToken = (token: string): AuthInfo => ({ token, clientId: 'client', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token } });
const auth = { verifyToken, authorizationServers: ['https://auth.example.com'] };
const headers = { ...HEADERS, authorization: 'Bearer outsider' };

async function open(url: string): Promise<string> {
  const body = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  await response.text();
  return response.headers.get('mcp-session-id')!;
}

/** The JSON-RPC answer to a resources/subscribe sent to `url`. */
async function subscribe(url: string, session: string, uri: string, id = 2): Promise<Record<string, unknown>> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } }),
  });
  const data = (await response.text()).split('\n').find((line) => line.startsWith('data: {'));
  return JSON.parse(data!.slice(6)) as Record<string, unknown>;
}

/** The URIs of the resource updates the cluster stored for a session. */
async function updatesOf(instance: Instance, session: string): Promise<string[]> {
  const entries = await instance.cluster.redis.xrange(`${instance.cluster.prefix}e:${session}`, '-', '+');
  return entries
    .map(([, fields]) => fields[fields.indexOf('m') + 1])
    .map((m) => JSON.parse(m) as { method?: string; params?: { uri?: string } })
    .filter((m) => m.method === 'notifications/resources/updated')
    .map((m) => m.params!.uri!);
}

describe('cluster subscriptions are recorded after authorization (issue 31, item 3)', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(2, redis.url, { name: 'board', version: '1', tools: [SubscriptionBoard] }, { auth });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('records nothing for a subscription the app refuses: the caller hears of no resource it may not read', async () => {
    const [a, b] = instances;
    const session = await open(a.url);
    expect(await subscribe(a.url, session, 'secret://plans')).toMatchObject({ error: {} });
    expect(await subscribe(b.url, session, 'guarded://data')).toMatchObject({ error: {} });
    expect(await subscribe(a.url, session, 'nothing://here')).toMatchObject({ error: {} });
    expect(await subscribe(b.url, session, 'files://a\nsecret://plans')).toMatchObject({ error: { code: -32602 } });
    expect(await subscribe(a.url, session, 'open://status')).toMatchObject({ result: {} });
    expect((await a.cluster.redis.smembers(`${a.cluster.prefix}sub:${session}`)).sort()).toEqual(['open://status']);
    // Updates published in order: the refused ones first; once the accepted one arrived, the others would have too.
    for (const uri of ['secret://plans', 'guarded://data', 'nothing://here', 'files://a\nsecret://plans']) b.app.notifyResourceUpdated(uri);
    b.app.notifyResourceUpdated('open://status');
    await eventually(async () => (await updatesOf(a, session)).length > 0, 3000, 'the update of open://status');
    expect(await updatesOf(a, session)).toEqual(['open://status']);
  });

  it('keeps subscriptions as a set, at most 100 per session whichever instance each came through', async () => {
    const [a, b] = instances;
    const session = await open(a.url);
    for (let i = 0; i < 100; i++) expect(await subscribe(i % 2 === 0 ? a.url : b.url, session, `files://${i}`, i)).toMatchObject({ result: {} });
    const refused = await subscribe(a.url, session, 'files://100');
    expect(refused).toMatchObject({ error: { code: -32602, message: expect.stringContaining('100') } });
    const key = `${a.cluster.prefix}sub:${session}`;
    expect(await a.cluster.redis.type(key)).toBe('set');
    expect(await a.cluster.redis.scard(key)).toBe(100);
    // One held already is taken again; unsubscribing makes room.
    expect(await subscribe(b.url, session, 'files://3')).toMatchObject({ result: {} });
    const unsubscribed = await fetch(b.url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'resources/unsubscribe', params: { uri: 'files://3' } }),
    });
    await unsubscribed.text();
    expect(await a.cluster.redis.scard(key)).toBe(99);
    expect(await subscribe(b.url, session, 'files://100')).toMatchObject({ result: {} });
  });
});
