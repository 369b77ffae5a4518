import { createApp } from '@toolwright/server';
import { rateLimit } from '@toolwright/server/middleware';
import type { HttpListener } from '@toolwright/server/http';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { randomUUID } from 'node:crypto';
import { Asker, callAsk } from './fixtures/asker';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually } from './fixtures/instances';

describe('an app serving HTTP with a cluster records accepted round states in it by default', () => {
  let redis: RedisServer;
  let cluster: RedisCluster;
  const listeners: HttpListener[] = [];
  const keys = [randomUUID() + randomUUID()];

  /** One instance: the same keys everywhere, the cluster given to listen, no requestState.usedStates. */
  const instance = async (mode: { stateless: boolean }, limited = false) => {
    const middleware = limited ? [rateLimit({ capacity: 1, refillPerSecond: 0.001 })] : [];
    const app = await createApp({ name: 'asker', version: '1', tools: [Asker], middleware, requestState: { keys } });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, cluster, ...mode });
    listeners.push(listener);
    return listener.url;
  };

  beforeAll(async () => {
    redis = await startRedisServer();
    cluster = await createRedisCluster({ url: redis.url, prefix: `rsc-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
  });
  afterAll(async () => {
    for (const listener of listeners) await listener.close();
    await cluster?.close();
    await redis?.close();
  });

  it.each([
    ['stateless', { stateless: true }],
    ['stateful', { stateless: false }],
  ])('refuses a state replayed to another instance (%s instances)', async (_mode, mode) => {
    const [a, b] = [await instance(mode), await instance(mode)];
    const round = await callAsk(a);
    expect(round.result).toMatchObject({ resultType: 'input_required' });
    const { inputRequests, requestState } = round.result as { inputRequests: Record<string, unknown>; requestState: string };
    const answer = { inputResponses: { [Object.keys(inputRequests)[0]]: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } }, requestState };
    expect((await callAsk(a, answer)).result).toMatchObject({ content: [{ type: 'text', text: 'the model said: hello' }] });
    const replayed = await callAsk(b, answer);
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringContaining('already used') });
    expect((await cluster.redis.keys(`${cluster.prefix}rs:*`)).length).toBeGreaterThan(0);
  });

  it('accepts a state sent to two instances at once only once; while Redis is down refuses it saying so, and accepts it once Redis is back', async () => {
    const [a, b] = [await instance({ stateless: true }), await instance({ stateless: false })];
    const round = await callAsk(a);
    const { inputRequests, requestState } = round.result as { inputRequests: Record<string, unknown>; requestState: string };
    const answer = { inputResponses: { [Object.keys(inputRequests)[0]]: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } }, requestState };
    await redis.stop();
    const refused = await callAsk(b, answer);
    expect(refused.error).toMatchObject({ code: -32603, message: expect.stringMatching(/^Redis is unreachable: /) as unknown });
    expect(refused.error?.message).not.toMatch(/\n\s+at /);
    await redis.start();
    await eventually(() => cluster.connected, 5000, 'reconnection');
    const answers = await Promise.all([a, b, a, b].map((url) => callAsk(url, answer)));
    expect(answers.filter((x) => x.result).map((x) => x.result)).toEqual([expect.objectContaining({ content: [{ type: 'text', text: 'the model said: hello' }] })]);
    expect(answers.filter((x) => x.error).map((x) => x.error?.code)).toEqual([-32602, -32602, -32602]);
  });

  it("lets a rate-limited call's answering round go on free on another instance: the cluster's store says it is shared", async () => {
    const [a, b] = [await instance({ stateless: true }, true), await instance({ stateless: true }, true)];
    // Each instance has a bucket of its own (one token): b's goes on a call of its own first.
    expect((await callAsk(b)).result).toMatchObject({ resultType: 'input_required' });
    const round = await callAsk(a);
    const { inputRequests, requestState } = round.result as { inputRequests: Record<string, unknown>; requestState: string };
    const answer = { inputResponses: { [Object.keys(inputRequests)[0]]: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } }, requestState };
    expect((await callAsk(b, answer)).result).toMatchObject({ content: [{ type: 'text', text: 'the model said: hello' }] });
  });
});
