import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Param, Prompt, Resource, Tool, ToolError, UseMiddleware, type AuthInfo, type MemberCall, type Next, type ToolLogger } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { cache, maxResultSize, MemoryCacheStore, MemoryRateLimitStore, normalizeErrors, rateLimit, timing, type CacheEntry, type CallTiming } from '@toolwright/server/middleware';
import { createTestClient } from '@toolwright/server/testing';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const jsonOf = (result: unknown): unknown => JSON.parse(textOf(result));

/** A clock the test moves by hand. */
function fakeClock(start = 1_000_000) {
  let now = start;
  const clock = () => now;
  clock.advance = (ms: number) => {
    now += ms;
  };
  return clock;
}

function recordingLogger() {
  const lines: { level: string; message: string; data: unknown }[] = [];
  const at =
    (level: string) =>
    (message: string, data?: unknown): void => {
      lines.push({ level, message, data });
    };
  const logger: ToolLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

/** A 2025-era client whose every request comes from `authInfo`, in memory. */
async function clientAs(app: App, authInfo: AuthInfo): Promise<LegacyClient> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await app.createServer({ authInfo }).connect(serverSide);
  const client = new LegacyClient({ name: 'middleware-test', version: '1' });
  await client.connect(clientSide);
  return client;
}

const caller = (clientId: string, extra?: Record<string, unknown>): AuthInfo => ({ token: `token-of-${clientId}-${JSON.stringify(extra ?? {})}`, clientId, scopes: [], extra });

describe('timing()', () => {
  class Timed {
    @Tool({ description: 'Works.' })
    works() {
      return 'ok';
    }

    @Tool({ description: 'Refuses with a ToolError.' })
    refuses() {
      throw new ToolError('no');
    }

    @Resource('timed://page')
    page() {
      return 'page';
    }
  }

  it('logs kind, name, duration and outcome of every call to the given logger', async () => {
    const { logger, lines } = recordingLogger();
    let t = 0;
    const app = await createApp({ name: 't', version: '1', tools: [Timed], middleware: [timing({ logger, clock: () => (t += 2.5) })], logger: recordingLogger().logger });
    const client = await createTestClient(app);
    await client.callTool({ name: 'works', arguments: {} });
    await client.callTool({ name: 'refuses', arguments: {} });
    await client.readResource({ uri: 'timed://page' });
    await client.close();
    expect(lines.map((l) => [l.level, l.message])).toEqual([
      ['info', "tool 'works' ok in 2.5 ms"],
      ['warn', "tool 'refuses' threw in 2.5 ms"],
      ['info', "resource 'timed://page' ok in 2.5 ms"],
    ]);
    expect(lines[0].data).toMatchObject<Partial<CallTiming>>({ kind: 'tool', name: 'works', durationMs: 2.5, outcome: 'ok' });
  });

  it("reports an isError result as such, and writes to the app's logger by default", async () => {
    const { logger, lines } = recordingLogger();
    const logged = await createApp({ name: 't', version: '1', tools: [Timed], middleware: [timing(), normalizeErrors()], logger });
    const client = await createTestClient(logged);
    expect((await client.callTool({ name: 'refuses', arguments: {} })).isError).toBe(true);
    await client.close();
    expect(lines).toEqual([expect.objectContaining({ level: 'warn', message: expect.stringMatching(/^tool 'refuses' isError in [\d.]+ ms$/) })]);
  });
});

describe('rateLimit()', () => {
  const clock = fakeClock();
  let runs = 0;

  @UseMiddleware(rateLimit({ capacity: 2, refillPerSecond: 1, clock }))
  class Limited {
    @Tool({ description: 'Counts.' })
    count() {
      return ++runs;
    }

    @Tool({ description: 'Another member: a bucket of its own.' })
    other() {
      return 'other';
    }

    @Resource('limited://page')
    page() {
      return 'page';
    }
  }

  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'rl', version: '1', tools: [Limited], logger: recordingLogger().logger });
  });

  it('lets a burst of `capacity` through, refuses the next with when to retry, and refills over time', async () => {
    const client = await createTestClient(app);
    runs = 0;
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('1');
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('2');
    const refused = await client.callTool({ name: 'count', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toBe("Rate limit reached for tool 'count': at most 2 calls at once, 1 per second after that. Retry in 1 s.");
    expect(runs).toBe(2);
    expect(textOf(await client.callTool({ name: 'other', arguments: {} }))).toBe('other');
    clock.advance(500);
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toContain('Retry in 0.5 s.');
    clock.advance(500);
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('3');
    clock.advance(10_000);
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('4');
    expect(textOf(await client.callTool({ name: 'count', arguments: {} }))).toBe('5');
    expect((await client.callTool({ name: 'count', arguments: {} })).isError).toBe(true);
    await client.close();
    clock.advance(10_000);
  });

  it('keeps one bucket per caller', async () => {
    const ada = await clientAs(app, caller('ada'));
    const bob = await clientAs(app, caller('bob'));
    for (let i = 0; i < 2; i++) expect((await ada.callTool({ name: 'count', arguments: {} })).isError).toBeFalsy();
    expect((await ada.callTool({ name: 'count', arguments: {} })).isError).toBe(true);
    expect((await bob.callTool({ name: 'count', arguments: {} })).isError).toBeFalsy();
    await Promise.all([ada.close(), bob.close()]);
    clock.advance(10_000);
  });

  it('refuses a resource read past the limit with a JSON-RPC error', async () => {
    const client = await createTestClient(app);
    await client.readResource({ uri: 'limited://page' });
    await client.readResource({ uri: 'limited://page' });
    await expect(client.readResource({ uri: 'limited://page' })).rejects.toMatchObject({ message: expect.stringContaining("Rate limit reached for resource 'limited://page'") });
    await client.close();
    clock.advance(10_000);
  });

  it('takes a key of its own and an asynchronous store', async () => {
    const buckets = new Map<string, { tokens: number; updatedAt: number }>();
    const store = { get: async (k: string) => buckets.get(k), set: async (k: string, b: { tokens: number; updatedAt: number }) => void buckets.set(k, b) };
    class Shared {
      @UseMiddleware(rateLimit({ capacity: 1, refillPerSecond: 0.5, clock, store, key: () => 'everyone' }))
      @Tool({ description: 'One bucket for all.' })
      shared() {
        return 'ran';
      }
    }
    const shared = await createApp({ name: 's', version: '1', tools: [Shared] });
    const ada = await clientAs(shared, caller('ada'));
    const bob = await clientAs(shared, caller('bob'));
    expect(textOf(await ada.callTool({ name: 'shared', arguments: {} }))).toBe('ran');
    expect(textOf(await bob.callTool({ name: 'shared', arguments: {} }))).toContain('Retry in 2 s.');
    expect([...buckets.keys()]).toEqual(['everyone']);
    await Promise.all([ada.close(), bob.close()]);
  });

  it('refuses options that cannot work, at startup', () => {
    expect(() => rateLimit({ capacity: 0, refillPerSecond: 1 })).toThrow(/capacity must be a number of calls >= 1, got 0/);
    expect(() => rateLimit({ capacity: 1, refillPerSecond: 0 })).toThrow(/refillPerSecond must be a positive number/);
  });
});

describe('MemoryRateLimitStore', () => {
  it('drops idle buckets and, past maxBuckets, the least recently used', () => {
    const store = new MemoryRateLimitStore({ maxBuckets: 2, idleMs: 1000 });
    store.set('a', { tokens: 0, updatedAt: 0 });
    store.set('b', { tokens: 0, updatedAt: 10 });
    store.set('a', { tokens: 0, updatedAt: 20 });
    store.set('c', { tokens: 0, updatedAt: 30 });
    expect(store.get('b')).toBeUndefined();
    expect(store.size).toBe(2);
    store.set('d', { tokens: 0, updatedAt: 1025 });
    expect(store.get('a')).toBeUndefined();
    expect(store.get('c')).toBeDefined();
    expect(() => new MemoryRateLimitStore({ maxBuckets: 0 })).toThrow(/maxBuckets must be a positive integer/);
  });
});

describe('cache()', () => {
  const clock = fakeClock();
  const runs: Record<string, number> = {};
  const ran = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);
  let failNext = false;

  @UseMiddleware(cache({ ttlMs: 1000, clock }))
  class Lookups {
    @Tool({ description: 'Reads.', annotations: { readOnlyHint: true } })
    lookup(@Param('city') city: string, @Param('units', { default: 'metric' }) units: string) {
      ran('lookup');
      if (failNext) {
        failNext = false;
        throw new ToolError('upstream down');
      }
      return { city, units, run: runs.lookup };
    }

    @Tool({ description: 'Sets, idempotently.', annotations: { idempotentHint: true } })
    put(@Param('value') value: string) {
      ran('put');
      return `${value} #${runs.put}`;
    }

    @Tool({ description: 'Writes: never cached.' })
    write() {
      return `write #${ran('write')}`;
    }

    @Resource('cities://{name}')
    city(@Param('name') name: string) {
      return `${name} #${ran('city')}`;
    }

    @Prompt({ description: 'Not cached by default.' })
    brief(@Param('topic') topic: string) {
      return `${topic} #${ran('brief')}`;
    }
  }

  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'c', version: '1', tools: [Lookups], logger: recordingLogger().logger });
  });

  it('serves a read-only tool from the cache for ttlMs, keyed by the validated arguments in any key order', async () => {
    const client = await createTestClient(app);
    const first = await client.callTool({ name: 'lookup', arguments: { city: 'Oslo' } });
    expect(jsonOf(first)).toEqual({ city: 'Oslo', units: 'metric', run: 1 });
    expect(jsonOf(await client.callTool({ name: 'lookup', arguments: { units: 'metric', city: 'Oslo' } }))).toEqual({ city: 'Oslo', units: 'metric', run: 1 });
    expect(jsonOf(await client.callTool({ name: 'lookup', arguments: { city: 'Rome' } }))).toMatchObject({ run: 2 });
    clock.advance(999);
    expect(jsonOf(await client.callTool({ name: 'lookup', arguments: { city: 'Oslo' } }))).toMatchObject({ run: 1 });
    clock.advance(1);
    expect(jsonOf(await client.callTool({ name: 'lookup', arguments: { city: 'Oslo' } }))).toMatchObject({ run: 3 });
    await client.close();
  });

  it('never caches an isError result, nor a tool that is neither read-only nor idempotent', async () => {
    const client = await createTestClient(app);
    clock.advance(5000);
    failNext = true;
    expect((await client.callTool({ name: 'lookup', arguments: { city: 'Paris' } })).isError).toBe(true);
    expect((await client.callTool({ name: 'lookup', arguments: { city: 'Paris' } })).isError).toBeFalsy();
    expect(textOf(await client.callTool({ name: 'write', arguments: {} }))).toBe('write #1');
    expect(textOf(await client.callTool({ name: 'write', arguments: {} }))).toBe('write #2');
    expect(textOf(await client.callTool({ name: 'put', arguments: { value: 'x' } }))).toBe('x #1');
    expect(textOf(await client.callTool({ name: 'put', arguments: { value: 'x' } }))).toBe('x #1');
    await client.close();
  });

  it('caches resource reads; prompts only when asked to', async () => {
    const client = await createTestClient(app);
    expect((await client.readResource({ uri: 'cities://oslo' })).contents[0]).toMatchObject({ text: 'oslo #1' });
    expect((await client.readResource({ uri: 'cities://oslo' })).contents[0]).toMatchObject({ text: 'oslo #1' });
    expect((await client.readResource({ uri: 'cities://rome' })).contents[0]).toMatchObject({ text: 'rome #2' });
    expect((await client.getPrompt({ name: 'brief', arguments: { topic: 'a' } })).messages[0].content).toMatchObject({ text: 'a #1' });
    expect((await client.getPrompt({ name: 'brief', arguments: { topic: 'a' } })).messages[0].content).toMatchObject({ text: 'a #2' });
    await client.close();
  });

  it('never serves one caller what another caller got', async () => {
    clock.advance(5000);
    const ada = await clientAs(app, caller('shared-app', { sub: 'ada' }));
    const bob = await clientAs(app, caller('shared-app', { sub: 'bob' }));
    const anon1 = await clientAs(app, caller('no-user-1'));
    const before = runs.lookup;
    await ada.callTool({ name: 'lookup', arguments: { city: 'Lima' } });
    await ada.callTool({ name: 'lookup', arguments: { city: 'Lima' } });
    await bob.callTool({ name: 'lookup', arguments: { city: 'Lima' } });
    await anon1.callTool({ name: 'lookup', arguments: { city: 'Lima' } });
    expect(runs.lookup - before).toBe(3);
    await Promise.all([ada.close(), bob.close(), anon1.close()]);
  });

  it('hands out copies, takes a store and a key of its own (undefined: not cached)', async () => {
    const store = new MemoryCacheStore({ maxEntries: 1 });
    let calls = 0;
    const mutate = async (_call: MemberCall, next: Next) => {
      const result = (await next()) as { content: { text: string }[] };
      result.content[0].text += '!';
      return result;
    };
    class Keyed {
      @UseMiddleware(mutate, cache({ ttlMs: 1000, clock, store, key: (call) => (call.args.skip ? undefined : `k:${String(call.args.q)}`) }))
      @Tool({ description: 'x', annotations: { readOnlyHint: true } })
      find(@Param('q') q: string, @Param('skip', { default: false }) _skip: boolean) {
        return `${q}${++calls}`;
      }
    }
    const keyed = await createApp({ name: 'k', version: '1', tools: [Keyed] });
    const client = await createTestClient(keyed);
    expect(textOf(await client.callTool({ name: 'find', arguments: { q: 'a' } }))).toBe('a1!');
    expect(textOf(await client.callTool({ name: 'find', arguments: { q: 'a' } }))).toBe('a1!');
    expect(textOf(await client.callTool({ name: 'find', arguments: { q: 'b' } }))).toBe('b2!');
    expect(store.size).toBe(1);
    expect(textOf(await client.callTool({ name: 'find', arguments: { q: 'a' } }))).toBe('a3!');
    expect(textOf(await client.callTool({ name: 'find', arguments: { q: 'a', skip: true } }))).toBe('a4!');
    await client.close();
    expect(() => cache({ ttlMs: 0 })).toThrow(/ttlMs must be a positive number/);
  });

  it('keys a result by a digest of its arguments, so large ones do not stay in memory as keys', async () => {
    const memory = new MemoryCacheStore();
    const keys: string[] = [];
    const store = { get: (key: string) => memory.get(key), set: (key: string, entry: CacheEntry) => (keys.push(key), memory.set(key, entry)) };
    let calls = 0;
    class Big {
      @UseMiddleware(cache({ ttlMs: 1000, clock, store }))
      @Tool({ description: 'x', annotations: { readOnlyHint: true } })
      echo(@Param('text') text: string, @Param('n', { default: 0 }) n: number) {
        return `${text.length}/${n} #${++calls}`;
      }
    }
    const client = await createTestClient(await createApp({ name: 'big', version: '1', tools: [Big] }));
    const text = 'x'.repeat(100_000);
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text, n: 1 } }))).toBe('100000/1 #1');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { n: 1, text } }))).toBe('100000/1 #1');
    expect(textOf(await client.callTool({ name: 'echo', arguments: { text: `${text}y`, n: 1 } }))).toBe('100001/1 #2');
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key.length).toBeLessThan(200);
    await client.close();
  });
});

describe('maxResultSize()', () => {
  class Big {
    @Tool({ description: 'Returns n characters.' })
    chars(@Param('n', { integer: true }) n: number) {
      return 'é'.repeat(n);
    }

    @Resource('big://page')
    page() {
      return 'x'.repeat(5000);
    }
  }

  it('turns a result over the limit into an error, and logs it', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'b', version: '1', tools: [Big], middleware: [maxResultSize({ bytes: 1000 })], logger });
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'chars', arguments: { n: 400 } }))).toHaveLength(400);
    const big = await client.callTool({ name: 'chars', arguments: { n: 600 } });
    expect(big.isError).toBe(true);
    expect(textOf(big)).toMatch(/^The result of tool 'chars' is too large to send \(12\d\d bytes, the limit is 1000\)\. Ask for less/);
    await expect(client.readResource({ uri: 'big://page' })).rejects.toMatchObject({ message: expect.stringContaining("The result of resource 'big://page' is too large") });
    await client.close();
    expect(lines.filter((l) => l.level === 'warn')).toHaveLength(2);
    expect(() => maxResultSize({ bytes: -1 })).toThrow(/bytes must be a positive integer/);
  });
});

describe('normalizeErrors()', () => {
  class Failing {
    @Tool({ description: 'Crashes.' })
    crash() {
      throw new Error('database password is hunter2');
    }

    @Tool({ description: 'Refuses.' })
    refuse() {
      throw new ToolError('not today');
    }

    @Resource('failing://page')
    page() {
      throw new Error('secret');
    }

    @Prompt({ description: 'Refuses.' })
    nope() {
      throw new ToolError('no prompt today');
    }
  }

  it('gives the middleware outside a result, the same safe one the framework gives', async () => {
    const { logger, lines } = recordingLogger();
    const seen: unknown[] = [];
    const outer = async (_call: MemberCall, next: Next) => {
      try {
        const result = await next();
        seen.push(result);
        return result;
      } catch (error) {
        seen.push(`threw ${(error as Error).message}`);
        throw error;
      }
    };
    const app = await createApp({ name: 'n', version: '1', tools: [Failing], middleware: [outer, normalizeErrors()], logger });
    const client = await createTestClient(app);
    const crashed = await client.callTool({ name: 'crash', arguments: {} });
    expect(crashed).toMatchObject({ isError: true, content: [{ text: "Tool 'crash' failed with an internal error. The server log has the details." }] });
    expect(await client.callTool({ name: 'refuse', arguments: {} })).toMatchObject({ isError: true, content: [{ text: 'not today' }] });
    expect(seen).toEqual([crashed, expect.objectContaining({ isError: true })]);
    await expect(client.readResource({ uri: 'failing://page' })).rejects.toMatchObject({ message: expect.stringMatching(/resource 'failing:\/\/page' failed with an internal error/) });
    await expect(client.getPrompt({ name: 'nope', arguments: {} })).rejects.toMatchObject({ message: expect.stringContaining('no prompt today') });
    expect(JSON.stringify(seen)).not.toContain('hunter2');
    expect(JSON.stringify(seen)).not.toContain('secret');
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual(["tool 'crash' threw an unexpected error", "resource 'failing://page' threw an unexpected error"]);
    await client.close();
  });
});

describe('built-in middleware over HTTP', () => {
  const clock = fakeClock();
  class Http {
    @Tool({ description: 'Reads.', annotations: { readOnlyHint: true } })
    now() {
      return `run at ${clock()}`;
    }
  }
  let listener: HttpListener;
  let url: URL;
  beforeAll(async () => {
    const app = await createApp({
      name: 'h',
      version: '1',
      tools: [Http],
      middleware: [rateLimit({ capacity: 1, refillPerSecond: 1, clock }), cache({ ttlMs: 60_000, clock })],
      logger: recordingLogger().logger,
    });
    listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    url = new URL(`http://127.0.0.1:${listener.port}/mcp`);
  });
  afterAll(() => listener.close());

  it('limits each session on its own and caches per session', async () => {
    const connect = async () => {
      const client = new LegacyClient({ name: 'c', version: '1' });
      await client.connect(new LegacyHttp(url));
      return client;
    };
    const [one, two] = [await connect(), await connect()];
    try {
      expect(textOf(await one.callTool({ name: 'now', arguments: {} }))).toBe(`run at ${clock()}`);
      expect(textOf(await one.callTool({ name: 'now', arguments: {} }))).toContain('Retry in 1 s.');
      clock.advance(1000);
      expect(textOf(await one.callTool({ name: 'now', arguments: {} }))).toBe('run at 1000000');
      expect(textOf(await two.callTool({ name: 'now', arguments: {} }))).toBe('run at 1001000');
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
  });
});
