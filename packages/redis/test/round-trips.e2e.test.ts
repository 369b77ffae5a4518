import 'reflect-metadata';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, eventually, startInstances, stopInstances, textOf, type Instance } from './fixtures/instances';

class Asking {
  @Tool({ description: 'Asks the user, the model and the roots, then reports.' })
  async ask(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Which drink?', { type: 'object', properties: { drink: { type: 'string' } }, required: ['drink'] });
    const sampled = await ctx.sample('Say hi.');
    const roots = await ctx.listRoots();
    const drink = answer.action === 'accept' ? String(answer.content.drink) : answer.action;
    return `${drink} / ${(sampled.content as { text?: string }).text} / ${roots.map((r) => r.uri).join(',')} on ${String(ctx.headers?.host)}`;
  }
}

describe('server-to-client requests answered through another instance', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(3, redis.url, { name: 'ask', version: '1', tools: [Asking] });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('reaches the instance that asked, for elicitation, sampling and roots', async () => {
    const { client, sent } = await connectRoundRobin(
      instances.map((i) => i.url),
      { elicitation: { form: {} }, sampling: {}, roots: {} },
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { drink: 'tea' } }));
    client.setRequestHandler(CreateMessageRequestSchema, () => ({ role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'test' }));
    client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///work' }] }));
    for (let round = 0; round < 3; round++) {
      const before = sent.length;
      const text = textOf(await client.callTool({ name: 'ask', arguments: {} }))!;
      expect(text).toMatch(/^tea \/ hi \/ file:\/\/\/work on 127\.0\.0\.1:\d+$/);
      // The call and its three answers went to more than one instance.
      const targets = new Set(
        sent
          .slice(before)
          .filter((s) => s.startsWith('POST'))
          .map((s) => s.split(' ')[1]),
      );
      expect(targets.size).toBeGreaterThan(1);
    }
    await client.close();
  });
});

class Waiting {
  static started = 0;
  static aborted = 0;
  @Tool({ description: 'Waits until cancelled.' })
  async waits(@Ctx() ctx: ToolContext) {
    Waiting.started++;
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve()));
    Waiting.aborted++;
    return 'cancelled';
  }
}

describe("a client's cancellation that reaches another instance", () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(3, redis.url, { name: 'cancel', version: '1', tools: [Waiting] });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('aborts the call on the instance running it', async () => {
    const { client } = await connectRoundRobin(instances.map((i) => i.url));
    for (let round = 0; round < 3; round++) {
      const controller = new AbortController();
      const call = client.callTool({ name: 'waits', arguments: {} }, undefined, { signal: controller.signal });
      await eventually(() => Waiting.started === round + 1, 3000, 'the call to run');
      controller.abort('changed my mind');
      await expect(call).rejects.toThrow();
      await eventually(() => Waiting.aborted >= round + 1, 3000, 'the instance running it to abort it');
      expect(Waiting.aborted).toBe(round + 1);
    }
    await client.close();
  });
});
