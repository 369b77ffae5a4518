import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Tool, UseMiddleware } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { rateLimit, type RateLimitStore, type TokenBucketRule } from '@toolwright/server/middleware';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

/**
 * A shared store that takes tokens atomically (as the Redis one does in a Lua script): an
 * asynchronous store with a `take` is asked once per call, and its answer alone decides, so
 * concurrent calls cannot read the same bucket and both spend its last token.
 */
function atomicStore() {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const rules: TokenBucketRule[] = [];
  const store: RateLimitStore = {
    get: () => {
      throw new Error('rateLimit read the bucket although the store takes tokens atomically');
    },
    set: () => {
      throw new Error('rateLimit wrote the bucket although the store takes tokens atomically');
    },
    // Asynchronous like a network store, atomic like a script: the whole step runs after one await.
    async take(key, rule) {
      await new Promise((resolve) => setImmediate(resolve));
      rules.push(rule);
      const held = buckets.get(key);
      const tokens = held ? Math.min(rule.capacity, held.tokens + ((rule.now - held.at) / 1000) * rule.refillPerSecond) : rule.capacity;
      if (tokens >= 1) buckets.set(key, { tokens: tokens - 1, at: rule.now });
      return tokens;
    },
  };
  return { store, rules };
}

describe('rateLimit() with a store that takes tokens atomically', () => {
  it('asks take alone, with its rule and clock, and runs exactly capacity of 30 concurrent calls', async () => {
    const { store, rules } = atomicStore();
    let ran = 0;
    class Limited {
      @UseMiddleware(rateLimit({ capacity: 4, refillPerSecond: 0.5, store, clock: () => 1_000_000, key: () => 'everyone' }))
      @Tool({ description: 'Four calls, then one every 2 s.' })
      limited() {
        ran++;
        return 'ran';
      }
    }
    const app = await createApp({ name: 'take', version: '1', tools: [Limited] });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await app.createServer().connect(serverSide);
    const client = new Client({ name: 'take-test', version: '1' });
    await client.connect(clientSide);
    try {
      const answers = await Promise.all(Array.from({ length: 30 }, () => client.callTool({ name: 'limited', arguments: {} })));
      expect(answers.filter((a) => textOf(a) === 'ran')).toHaveLength(4);
      expect(ran).toBe(4);
      const refused = answers.filter((a) => (a as { isError?: boolean }).isError === true);
      expect(refused).toHaveLength(26);
      // The bucket is empty: a token comes back in 2 s.
      expect(textOf(refused[0])).toContain('Retry in 2 s.');
      expect(rules).toHaveLength(30);
      expect(rules[0]).toEqual({ capacity: 4, refillPerSecond: 0.5, now: 1_000_000 });
    } finally {
      await client.close();
    }
  });
});
