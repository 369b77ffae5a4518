import { createApp, type AppOptions } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createRedisCluster, createRedisRequestStateStore, type RedisCluster } from '@toolwright/redis';
import { randomUUID } from 'node:crypto';
import { Asker, callAsk } from './fixtures/asker';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

describe('2026-07-28 round states accepted once across instances (createRedisRequestStateStore)', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  const listeners: HttpListener[] = [];
  const keys = [randomUUID() + randomUUID()];

  /** One instance of the app: the same keys everywhere; the used-state store in Redis, or each its own (the default). */
  const instance = async (shared: boolean) => {
    const requestState: AppOptions['requestState'] = { keys, ...(shared && { usedStates: createRedisRequestStateStore(cluster) }) };
    const app = await createApp({ name: 'asker', version: '1', tools: [Asker], requestState });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, stateless: true });
    listeners.push(listener);
    return listener.url;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `rs-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
  });
  afterAll(async () => {
    for (const listener of listeners) await listener.close();
    await cluster?.close();
    await redis?.close();
  });

  /** Asks on `first`, answers on `second`, then replays the same answer to `third`. */
  async function replay(first: string, second: string, third: string) {
    const round = await callAsk(first);
    expect(round.result).toMatchObject({ resultType: 'input_required' });
    const { inputRequests, requestState } = round.result as { inputRequests: Record<string, unknown>; requestState: string };
    const answer = { inputResponses: { [Object.keys(inputRequests)[0]]: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } }, requestState };
    const answered = await callAsk(second, answer);
    expect(answered.result).toMatchObject({ content: [{ type: 'text', text: 'the model said: hello' }] });
    return callAsk(third, answer);
  }

  it('refuses a state replayed to another instance when the instances share the store', async () => {
    const [a, b] = [await instance(true), await instance(true)];
    const replayed = await replay(a, a, b);
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    const used = await cluster.redis.keys(`${cluster.prefix}rs:*`);
    expect(used.length).toBeGreaterThan(0);
    for (const key of used) expect(await cluster.redis.pttl(key)).toBeGreaterThan(0);
  });

  it('without a shared store, each instance alone refuses only its own replays (why the store exists)', async () => {
    const [a, b] = [await instance(false), await instance(false)];
    expect((await replay(a, a, a)).error).toMatchObject({ code: -32602 });
    const otherInstance = await replay(a, a, b);
    expect(otherInstance.result).toMatchObject({ content: [{ type: 'text', text: 'the model said: hello' }] });
  });
});
