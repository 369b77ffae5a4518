import 'reflect-metadata';
import { Param, Tool } from '@toolwright/core';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, eventually, startInstances, stopInstances, textOf, type Instance } from './fixtures/instances';
import { openRawSession, rpc } from './fixtures/sse';

class Echo {
  @Tool({ description: 'Echoes.' }) echo(@Param('text') text: string) {
    return text;
  }
}

const call = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: `t${id}` } } });

describe('Redis unreachable: clear errors meanwhile, recovery by itself', () => {
  let redis: RedisServer;
  let instances: Instance[];
  let urls: string[];
  beforeAll(async () => {
    redis = await startRedisServer({ persist: true });
    instances = await startInstances(2, redis.url, { name: 'faults', version: '1', tools: [Echo] }, {}, undefined, { commandTimeoutMs: 300 });
    urls = instances.map((i) => i.url);
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  async function expect503(response: Response): Promise<void> {
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    const body = (await response.json()) as { jsonrpc: string; error: { code: number; message: string } };
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(-32000);
    expect(body.error.message).toMatch(/^Service unavailable: the shared session store is unreachable \(Redis is unreachable: .+\)\. Retry shortly; no session was lost\.$/);
  }

  it('answers 503 while Redis is stopped, and serves the same sessions once it is back', async () => {
    const { client } = await connectRoundRobin(urls);
    const raw = await openRawSession(urls[1]);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'before' } }))).toBe('before');

    await redis.stop();
    // Answered while Redis is still down (it comes back only below): a request that waited for it would time the test out.
    for (const url of urls) {
      await expect503(await rpc(url, raw, call(1)));
      await expect503(await rpc(url, undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }));
    }
    await expect(client.callTool({ name: 'echo', arguments: { text: 'during' } })).rejects.toThrow(/503|unreachable/);

    await redis.start();
    await eventually(() => instances.every((i) => i.cluster.connected), 5000, 'both instances reconnected');
    for (const url of urls) {
      const response = await rpc(url, raw, call(2));
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('"t2"');
    }
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toBe('after');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'after, elsewhere' } }))).toBe('after, elsewhere');
    await client.close();
  });

  it('Redis stopped and restarted mid-load: no crash, only 503s meanwhile, every session carries on', async () => {
    const clients = await Promise.all(Array.from({ length: 8 }, () => connectRoundRobin(urls)));
    let ok = 0;
    const errors = new Set<string>();
    let running = true;
    const loops = clients.map(async ({ client }, c) => {
      for (let i = 0; running; i++) {
        try {
          const text = textOf(await client.callTool({ name: 'echo', arguments: { text: `${c}:${i}` } }));
          if (text !== `${c}:${i}`) errors.add(`wrong answer ${text}`);
          ok++;
        } catch (error) {
          errors.add(
            String((error as Error).message)
              .replace(/\d+/g, 'N')
              .slice(0, 200),
          );
          await new Promise((r) => setTimeout(r, 20));
        }
      }
    });
    await eventually(() => ok > 50, 5000, 'calls to succeed under load');
    await redis.stop();
    await eventually(() => errors.size > 0, 5000, 'calls to be refused while Redis is down');
    await redis.start();
    await eventually(() => instances.every((i) => i.cluster.connected), 5000, 'reconnection');
    const before = ok;
    await eventually(() => ok > before + 50, 5000, 'calls to succeed again');
    running = false;
    await Promise.all(loops);
    // The session lookup, or (when Redis went away between the two) the stream's first event, could not be stored: 503 either way.
    for (const message of errors)
      expect(message).toMatch(/Service unavailable: the (shared session store is unreachable|event store failed to store this stream's first event) \(Redis is unreachable: /);
    expect(errors.size).toBeGreaterThan(0);
    // Every session is still there, on every instance.
    for (const { client } of clients) expect(textOf(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
    await Promise.all(clients.map(({ client }) => client.close()));
  }, 30_000);

  it('answers 503 within the command timeout while Redis hangs, then recovers', async () => {
    const raw = await openRawSession(urls[0]);
    redis.pause();
    try {
      // Answered while Redis still hangs (it resumes only below): the command timeout gave up on it.
      await expect503(await rpc(urls[1], raw, call(3)));
    } finally {
      redis.resume();
    }
    await eventually(async () => (await rpc(urls[1], raw, call(4))).status === 200, 5000, 'recovery after the pause');
  });
});
