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

  it('a malformed answer posted to another instance is refused (400) and fails the question where it was asked, at once', async () => {
    const [asker, other] = instances.map((i) => i.url);
    const post = (url: string, body: string, headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
    const capabilities = { elicitation: { form: {} }, sampling: {}, roots: {} };
    const init = await post(asker, JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1' } } }));
    await init.text();
    const headers = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    await (await post(asker, '{"jsonrpc":"2.0","method":"notifications/initialized"}', headers)).text();
    const call = await post(asker, '{"jsonrpc":"2.0","id":"call","method":"tools/call","params":{"name":"ask","arguments":{}}}', headers);
    const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const next = async (match: (message: { id?: unknown; method?: unknown; result?: unknown }) => boolean) => {
      for (;;) {
        const found = [...text.matchAll(/^data: (.+)$/gm)].map((m) => JSON.parse(m[1])).find(match);
        if (found) return found;
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended: ${text}`);
        text += value;
      }
    };
    const request = await next((m) => m.method === 'elicitation/create');
    const refused = await post(other, `{"jsonrpc":"2.0","id":${JSON.stringify(request.id)},"error":"No."}`, headers);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { code: number } }).error.code).toBe(-32600);
    const late = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the question still waits')), 5_000).unref());
    const answer = await Promise.race([next((m) => m.id === 'call'), late]);
    expect(answer.result).toEqual({
      content: [
        {
          type: 'text',
          text: 'The client did not answer the elicitation request: its response is not valid JSON-RPC: "error" must be an object with an integer "code" and a string "message", and the response nothing but jsonrpc, id and error.',
        },
      ],
      isError: true,
    });
    await reader.cancel().catch(() => undefined);
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
