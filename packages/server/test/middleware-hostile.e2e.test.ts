import { Param, Resource, Tool, ToolError, UseGuards, UseMiddleware, type MemberCall, type ToolLogger } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { cache, maxResultSize, MemoryCacheStore, normalizeErrors, rateLimit, timing } from '@toolwright/server/middleware';
import { createTestClient, type TestAuth, type TestEra } from '@toolwright/server/testing';

/**
 * Hostile input against the built-in middleware and guards, through a real SDK client in
 * memory, in both eras: what a caller sends (arguments, ids in its token) and what a member
 * or guard does (throws, hangs, returns odd values) never crosses callers, leaks, or stops the server.
 */
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

function recordingLogger() {
  const lines: { level: string; message: string }[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  const logger: ToolLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

function fakeClock(start = 1_000_000) {
  let now = start;
  const clock = () => now;
  clock.set = (ms: number) => void (now = ms);
  return clock;
}

const eras: TestEra[] = ['legacy', 'modern'];

describe.each(eras)('cache() against hostile arguments, %s era', (era) => {
  let runs = 0;
  class Lookups {
    @UseMiddleware(cache({ ttlMs: 60_000 }))
    @Tool({ description: 'Echoes a filter.', annotations: { readOnlyHint: true } })
    find(@Param('filter', { schema: { type: 'object' } }) filter: Record<string, unknown>) {
      return `${JSON.stringify(filter).length} #${++runs}`;
    }

    @UseMiddleware(cache({ ttlMs: 60_000 }))
    @Tool({ description: 'Fails once per argument.', annotations: { readOnlyHint: true } })
    flaky(@Param('q') q: string) {
      runs++;
      if (!seen.has(q)) {
        seen.add(q);
        throw new ToolError(`not yet: ${q}`);
      }
      return `ok ${q} #${runs}`;
    }
  }
  const seen = new Set<string>();
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'hostile-cache', version: '1', tools: [Lookups], logger: recordingLogger().logger });
  });
  const find = async (client: Awaited<ReturnType<typeof createTestClient>>, filter: unknown) => textOf(await client.callTool({ name: 'find', arguments: { filter } }));

  it('keeps a `__proto__` key as a key: arguments that differ there never share a cached result', async () => {
    const client = await createTestClient(app, { era });
    const a = await find(client, JSON.parse('{"__proto__": "a"}'));
    const b = await find(client, JSON.parse('{"__proto__": "bb"}'));
    const nested = await find(client, JSON.parse('{"__proto__": {"x": 1}}'));
    const empty = await find(client, {});
    expect(new Set([a, b, nested, empty]).size).toBe(4);
    expect(await find(client, JSON.parse('{"__proto__": "a"}'))).toBe(a);
    await client.close();
  });

  it('hits one entry for every key order at every depth, and tells apart values JSON tells apart', async () => {
    const client = await createTestClient(app, { era });
    const first = await find(client, { b: { d: [1, { f: 1, e: 2 }], c: 'x' }, a: 1, constructor: 'c', toString: 't' });
    expect(await find(client, { toString: 't', a: 1, constructor: 'c', b: { c: 'x', d: [1, { e: 2, f: 1 }] } })).toBe(first);
    // -0 is 0 in JSON (the method sees the same argument either way), 1e21 is itself.
    const zero = await find(client, { n: 0 });
    expect(await find(client, { n: -0 })).toBe(zero);
    const distinct = [
      { n: 1e21 },
      { n: '1e21' },
      { n: 'NaN' },
      { n: null },
      { s: '\ud800' },
      { s: '\ud801' },
      { s: '\ufffd' },
      { s: '\u00e9' },
      { s: 'e\u0301' },
      { s: ' ' },
      { 'a b': 1 },
      { a: { b: 1 } },
      { 'a.b': 1 },
    ].map((filter) => find(client, filter));
    const answers = await Promise.all(distinct);
    const runsOf = answers.map((text) => text.split('#')[1]);
    expect(new Set(runsOf).size).toBe(distinct.length);
    await client.close();
  });

  it('keys megabytes of deeply nested arguments by a digest, and never caches an error', async () => {
    const client = await createTestClient(app, { era });
    let deep: unknown = 'leaf';
    for (let i = 0; i < 50; i++) deep = { [`k${i}`]: deep, pad: 'p'.repeat(10) };
    const huge = { deep, blob: 'x'.repeat(2_000_000) };
    const first = await find(client, huge);
    expect(await find(client, huge)).toBe(first);
    expect(await find(client, { ...huge, blob: `${huge.blob}y` })).not.toBe(first);
    const failed = await client.callTool({ name: 'flaky', arguments: { q: 'z' } });
    expect(failed).toMatchObject({ isError: true, content: [{ text: 'not yet: z' }] });
    expect(textOf(await client.callTool({ name: 'flaky', arguments: { q: 'z' } }))).toMatch(/^ok z #/);
    await client.close();
  });
});

describe.each(eras)('callers whose ids hold the key separators, %s era', (era) => {
  let runs = 0;
  const clock = fakeClock();
  class Mine {
    @UseMiddleware(cache({ ttlMs: 60_000, clock }))
    @Tool({ description: 'Whose data.', annotations: { readOnlyHint: true } })
    mine() {
      return `private #${++runs}`;
    }

    @UseMiddleware(rateLimit({ capacity: 1, refillPerSecond: 0.001, clock }))
    @Tool({ description: 'Limited.' })
    limited() {
      return 'ran';
    }
  }
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'hostile-callers', version: '1', tools: [Mine], logger: recordingLogger().logger });
  });
  const as = (clientId: string, sub: string | undefined, token: string): Promise<Awaited<ReturnType<typeof createTestClient>>> =>
    createTestClient(app, { era, auth: { clientId, token, ...(sub !== undefined && { claims: { sub } }) } satisfies TestAuth });

  // Pairs that spelled one caller key when ids went into it as they are.
  const pairs: [string, string | undefined, string, string | undefined][] = [
    ['a/user:x', 'y', 'a', 'x/user:y'],
    ['a/user:b', undefined, 'a', 'b'],
    ['a b', 'c', 'a', 'b c'],
    ['%2F', 'u', '/', 'u'],
    ['__proto__', 'constructor', '__proto__', 'toString'],
  ];

  it.each(pairs)('never serves client %j (user %j) what client %j (user %j) got from the cache', async (idA, subA, idB, subB) => {
    const a = await as(idA, subA, `token-a-${idA}`);
    const b = await as(idB, subB, `token-b-${idB}`);
    const got = textOf(await a.callTool({ name: 'mine', arguments: {} }));
    expect(textOf(await b.callTool({ name: 'mine', arguments: {} }))).not.toBe(got);
    expect(textOf(await a.callTool({ name: 'mine', arguments: {} }))).toBe(got);
    await Promise.all([a.close(), b.close()]);
  });

  it.each(pairs)('gives client %j (user %j) and client %j (user %j) a rate limit each', async (idA, subA, idB, subB) => {
    clock.set(clock() + 10_000_000);
    const a = await as(idA, subA, 'ta');
    const b = await as(idB, subB, 'tb');
    expect(textOf(await a.callTool({ name: 'limited', arguments: {} }))).toBe('ran');
    expect(textOf(await b.callTool({ name: 'limited', arguments: {} }))).toBe('ran');
    expect(await a.callTool({ name: 'limited', arguments: {} })).toMatchObject({ isError: true });
    await Promise.all([a.close(), b.close()]);
  });
});

describe.each(eras)('rateLimit() under pressure, %s era', (era) => {
  it('spends each token once across concurrent calls, and a clock that goes back gives none back', async () => {
    const clock = fakeClock();
    let ran = 0;
    class Burst {
      @UseMiddleware(rateLimit({ capacity: 3, refillPerSecond: 1, clock }))
      @Tool({ description: 'Counted.' })
      hit() {
        return `ran ${++ran}`;
      }
    }
    const client = await createTestClient(await createApp({ name: 'burst', version: '1', tools: [Burst], logger: recordingLogger().logger }), { era, auth: { clientId: 'x'.repeat(16_384) } });
    const results = await Promise.all(Array.from({ length: 20 }, () => client.callTool({ name: 'hit', arguments: {} })));
    expect(results.filter((r) => !r.isError)).toHaveLength(3);
    expect(ran).toBe(3);
    clock.set(clock() - 3_600_000);
    expect(await client.callTool({ name: 'hit', arguments: {} })).toMatchObject({ isError: true });
    clock.set(clock() + 3_600_000 + 1000);
    expect(textOf(await client.callTool({ name: 'hit', arguments: {} }))).toBe('ran 4');
    await client.close();
  });

  it('refuses rules that cannot work when the app is written, saying which', () => {
    expect(() => rateLimit({ capacity: NaN, refillPerSecond: 1 })).toThrow(/capacity must be a number of calls >= 1, got NaN/);
    expect(() => rateLimit({ capacity: Infinity, refillPerSecond: 1 })).toThrow(/capacity/);
    expect(() => rateLimit({ capacity: 1, refillPerSecond: NaN })).toThrow(/refillPerSecond must be a positive number, got NaN/);
    expect(() => rateLimit({ capacity: 1, refillPerSecond: -1 })).toThrow(/refillPerSecond/);
  });
});

describe('the memory cache store under many distinct keys', () => {
  it('holds at most maxEntries however many calls miss', async () => {
    const store = new MemoryCacheStore();
    const middleware = cache({ ttlMs: 60_000, store });
    const call = { kind: 'tool', name: 'find', annotations: { readOnlyHint: true }, authInfo: undefined, sessionId: undefined, uri: undefined } as const;
    for (let i = 0; i < 5_000; i++) await middleware({ ...call, args: { i } } as unknown as MemberCall, () => Promise.resolve({ content: [] }));
    expect(store.size).toBe(1000);
  });
});

describe.each(eras)('cache() and huge results, %s era', (era) => {
  it("keeps results up to the store's maxBytes, least recently used out, and none larger than that alone", async () => {
    const store = new MemoryCacheStore({ maxBytes: 1_000_000 });
    let runs = 0;
    class Pages {
      @UseMiddleware(cache({ ttlMs: 60_000, store }))
      @Tool({ description: 'A page of n characters.', annotations: { readOnlyHint: true } })
      page(@Param('n', { integer: true }) n: number, @Param('tag') tag: string) {
        runs++;
        return `${tag}:${'x'.repeat(n)}`;
      }
    }
    const client = await createTestClient(await createApp({ name: 'pages', version: '1', tools: [Pages], logger: recordingLogger().logger }), { era });
    for (let i = 0; i < 10; i++) await client.callTool({ name: 'page', arguments: { n: 300_000, tag: `t${i}` } });
    expect(store.size).toBe(3);
    // The last three are served from the cache, the first is gone.
    const before = runs;
    for (const tag of ['t9', 't8', 't7']) expect(textOf(await client.callTool({ name: 'page', arguments: { n: 300_000, tag } }))).toHaveLength(300_000 + tag.length + 1);
    expect(runs).toBe(before);
    await client.callTool({ name: 'page', arguments: { n: 300_000, tag: 't0' } });
    expect(runs).toBe(before + 1);
    // Larger than the whole store: answered, never kept.
    const huge = await client.callTool({ name: 'page', arguments: { n: 2_000_000, tag: 'big' } });
    expect(textOf(huge)).toHaveLength(2_000_004);
    await client.callTool({ name: 'page', arguments: { n: 2_000_000, tag: 'big' } });
    expect(runs).toBe(before + 3);
    expect(store.size).toBe(3);
    await client.close();
  });

  it('bounds the default store by bytes too', () => {
    const store = new MemoryCacheStore();
    const value = { content: [{ type: 'text', text: 'x'.repeat(1_000_000) }] };
    for (let i = 0; i < 200; i++) store.set(`k${i}`, { value, expiresAt: Infinity });
    expect(store.size).toBe(67);
    expect(() => new MemoryCacheStore({ maxBytes: 0 })).toThrow(/maxBytes must be a positive integer, got 0/);
  });
});

describe.each(eras)('maxResultSize() at the edge, %s era', (era) => {
  const limit = 2000;
  class Sized {
    @Tool({ description: 'Text of n characters.' })
    text(@Param('n', { integer: true }) n: number, @Param('char') char: string) {
      return char.repeat(n);
    }

    @Tool({ description: 'An image of n base64 characters.' })
    image(@Param('n', { integer: true }) n: number) {
      return { content: [{ type: 'image', data: 'A'.repeat(n), mimeType: 'image/png' }] };
    }

    @Tool({ description: 'Structured.', outputSchema: { type: 'object', properties: { s: { type: 'string' } } } })
    structured(@Param('n', { integer: true }) n: number) {
      return { s: '\u20ac'.repeat(n) };
    }
  }
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'sized', version: '1', tools: [Sized], middleware: [maxResultSize({ bytes: limit })], logger: recordingLogger().logger });
  });
  /** The JSON size of a text result of `n` × `char`. */
  const sizeOf = (n: number, char: string) => Buffer.byteLength(JSON.stringify({ content: [{ type: 'text', text: char.repeat(n) }] }));

  it.each(['a', '\u00e9', '\u20ac', '\u{1f600}', '\u0007'])('passes a result of exactly the limit and refuses one byte more (%j)', async (char) => {
    const client = await createTestClient(app, { era });
    let n = 0;
    while (sizeOf(n + 1, char) <= limit) n++;
    const at = await client.callTool({ name: 'text', arguments: { n, char } });
    expect(at.isError).toBeFalsy();
    const over = await client.callTool({ name: 'text', arguments: { n: n + 1, char } });
    expect(over).toMatchObject({ isError: true });
    expect(textOf(over)).toContain(`(${sizeOf(n + 1, char)} bytes, the limit is ${limit})`);
    await client.close();
  });

  it('counts images and structured content too', async () => {
    const client = await createTestClient(app, { era });
    expect((await client.callTool({ name: 'image', arguments: { n: 1000 } })).isError).toBeFalsy();
    expect(await client.callTool({ name: 'image', arguments: { n: 2000 } })).toMatchObject({ isError: true });
    // Three bytes a euro sign, in the text and in structuredContent.
    expect((await client.callTool({ name: 'structured', arguments: { n: 100 } })).isError).toBeFalsy();
    expect(await client.callTool({ name: 'structured', arguments: { n: 400 } })).toMatchObject({ isError: true });
    await client.close();
  });
});

describe.each(eras)('what members and guards throw or return, %s era', (era) => {
  const thrown: Record<string, () => unknown> = {
    null: () => null,
    symbol: () => Symbol('s'),
    bare: () => Object.assign(Object.create(null) as object, { message: 'secret-bare' }),
    getters: () => {
      const error = new Error('secret-getters');
      for (const key of ['message', 'stack', 'name', 'cause']) {
        Object.defineProperty(error, key, {
          get: () => {
            throw new Error('getter');
          },
        });
      }
      return error;
    },
    huge: () => new Error(`secret-huge \u001b[31m\u0007\r\n${'x'.repeat(1_000_000)}`),
  };
  const guards: Record<string, () => unknown> = {
    number: () => 1,
    string: () => 'true',
    object: () => ({}),
    throwsNull: () => {
      throw null;
    },
    rejectsSymbol: () => Promise.reject(Symbol('no')),
    thenThrows: () => ({
      get then() {
        throw new Error('then');
      },
    }),
  };
  const guarded = Object.entries(guards).map(([name, guard]) => {
    class Guarded {
      @UseGuards(() => guard() as boolean)
      @Tool({ name: `guarded_${name}`, description: 'Guarded.' })
      run() {
        return 'ran';
      }
    }
    return Guarded;
  });
  class Throws {
    @UseMiddleware(timing(), normalizeErrors())
    @Tool({ description: 'Throws what it is told.' })
    boom(@Param('kind') kind: string) {
      throw thrown[kind]();
    }

    @UseMiddleware(timing(), normalizeErrors())
    @Resource('boom://{kind}')
    page(@Param('kind') kind: string) {
      throw thrown[kind]();
    }

    @Tool({ description: 'Works.' })
    ok() {
      return 'ok';
    }
  }

  it('answers every throw with the safe message, nothing of it on the wire, and keeps serving', async () => {
    const { logger, lines } = recordingLogger();
    const client = await createTestClient(await createApp({ name: 'throws', version: '1', tools: [Throws], logger }), { era });
    for (const kind of Object.keys(thrown)) {
      const result = await client.callTool({ name: 'boom', arguments: { kind } });
      expect(result).toMatchObject({ isError: true, content: [{ text: "Tool 'boom' failed with an internal error. The server log has the details." }] });
      await expect(client.readResource({ uri: `boom://${kind}` })).rejects.toMatchObject({ message: expect.stringContaining(`resource 'boom://${kind}' failed with an internal error`) });
    }
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toBe('ok');
    // timing() outside normalizeErrors() saw a result for every tool call.
    expect(lines.filter((l) => /^tool 'boom' \w+ in /.test(l.message)).map((l) => l.message.replace(/[\d.]+ ms/, 'n ms'))).toEqual(Object.keys(thrown).map(() => "tool 'boom' isError in n ms"));
    expect(lines.filter((l) => l.level === 'error')).toHaveLength(2 * Object.keys(thrown).length);
    await client.close();
  });

  it('refuses for a guard that returns anything but true, throws a non-Error or rejects', async () => {
    const client = await createTestClient(await createApp({ name: 'guards', version: '1', tools: guarded, logger: recordingLogger().logger }), { era });
    expect((await client.listTools()).tools).toEqual([]);
    for (const name of Object.keys(guards)) await expect(client.callTool({ name: `guarded_${name}`, arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();
  });
});
