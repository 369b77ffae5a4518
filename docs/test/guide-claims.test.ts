/**
 * Pins what the guide pages on tools, DTOs, resources, prompts, completions, the call context,
 * errors and middleware say a client sees, for the statements no snippet test covers. Each
 * case builds an app with `createApp` and drives it through the real SDK client.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ctx, image, Param, Prompt, Resource, Tool, ToolError, UseGuards, UseMiddleware, type MemberCall, type Next, type ToolContext } from '@toolwright/core';
import { IsString } from '@toolwright/core/dto';
import { createApp } from '@toolwright/server';
import { cache } from '@toolwright/server/middleware';
import { createTestClient } from '@toolwright/server/testing';
import { ReviewPrompts } from '../snippets/prompts/review.prompts';
import { buildOf, connect, textOf } from './helpers';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

const errorOf = <T>(promise: Promise<T>) =>
  promise.then(
    (value) => ({ value }) as unknown as Error & { code?: number; data?: unknown },
    (error: Error & { code?: number; data?: unknown }) => error,
  );

describe('Tools page', () => {
  it('refuses a parameter, prompt argument or template variable named after a member of every object', async () => {
    class ToolParam {
      @Tool({ description: 'd' }) x(@Param('constructor') value: string) {
        return value;
      }
    }
    class PromptArgument {
      @Prompt({ description: 'd' }) x(@Param('toString') value: string) {
        return value;
      }
    }
    class TemplateVariable {
      @Resource('things://{valueOf}') x(@Param('valueOf') value: string) {
        return value;
      }
    }
    expect(await buildOf([ToolParam])).toContain("ToolParam.x param #0 'constructor': its tool argument name 'constructor' is also a member of every JavaScript object");
    expect(await buildOf([PromptArgument])).toContain("its prompt argument name 'toString' is also a member of every JavaScript object");
    expect(await buildOf([TemplateVariable])).toContain("its template variable name 'valueOf' is also a member of every JavaScript object");
  });

  it('names a parameter without a decorator', async () => {
    class Tools {
      @Tool({ description: 'd' }) x(@Param('a') a: string, b: string) {
        return a + b;
      }
    }
    expect(await buildOf([Tools])).toContain('Tools.x param #1: has no decorator');
  });

  it('turns each kind of return value into the content the table says', async () => {
    class Results {
      @Tool({ description: 'd' }) big() {
        return 12n;
      }
      @Tool({ description: 'd' }) flag() {
        return false;
      }
      @Tool({ description: 'd' }) list() {
        return [1, 2];
      }
      @Tool({ description: 'd' }) block() {
        return image('iVBORw0KGgo=', 'image/png'); // a base64 string, not a Buffer
      }
      @Tool({ description: 'd' }) nothing() {
        return undefined;
      }
      @Tool({ description: 'd' }) empty() {
        return null;
      }
    }
    const { client, close } = await connect([Results]);
    const call = (name: string) => client.callTool({ name, arguments: {} });
    expect(await call('big')).toEqual({ content: [{ type: 'text', text: '12' }] });
    expect(await call('flag')).toEqual({ content: [{ type: 'text', text: 'false' }] });
    expect(await call('list')).toEqual({ content: [{ type: 'text', text: '[1,2]' }] });
    expect(await call('block')).toEqual({ content: [{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' }] });
    expect(await call('nothing')).toEqual({ content: [] });
    expect(await call('empty')).toEqual({ content: [] });
    await close();
  });

  it("serves a base class's tools, the subclass's declaration winning", async () => {
    class Base {
      @Tool({ description: 'From the base.' }) hello() {
        return 'base';
      }
      @Tool({ description: 'Only in the base.' }) other() {
        return 'other';
      }
    }
    class Sub extends Base {
      @Tool({ description: 'From the subclass.' }) override hello() {
        return 'sub';
      }
    }
    const { client, close } = await connect([Sub]);
    const { tools } = await client.listTools();
    expect(tools.map((t) => [t.name, t.description]).sort()).toEqual([
      ['hello', 'From the subclass.'],
      ['other', 'Only in the base.'],
    ]);
    expect(textOf(await client.callTool({ name: 'hello', arguments: {} }))).toBe('sub');
    expect(textOf(await client.callTool({ name: 'other', arguments: {} }))).toBe('other');
    await close();
  });
});

describe('Resources page', () => {
  it('reads URIs the way "How a URI is matched" says', async () => {
    class Matched {
      @Resource('files://{name}.{ext}') file(@Param('name') name: string, @Param('ext') ext: string) {
        return `${name}|${ext}`;
      }
      @Resource('repo://{owner}/{+path}') repo(@Param('owner') owner: string, @Param('path') path: string) {
        return `${owner}|${path}`;
      }
      @Resource('docs://{+path}/{page}') doc(@Param('path') path: string, @Param('page') page: string) {
        return `${path}|${page}`;
      }
      @Resource('search://items{?q,limit}') search(@Param('q') q: string, @Param('limit', { integer: true }) limit: number) {
        return `${q}|${typeof limit}${limit}`;
      }
      @Resource('tree://{/path*}') tree(@Param('path', { type: () => [String] }) path: string[]) {
        return JSON.stringify(path);
      }
    }
    const { client, close } = await connect([Matched], { maxUriLength: 10_000 });
    const read = async (uri: string) => ((await client.readResource({ uri })).contents[0] as { text: string }).text;
    expect(await read('files://archive.tar.gz')).toBe('archive.tar|gz');
    expect(await read('repo://me/src/a.ts')).toBe('me|src/a.ts');
    expect(await read('docs://a/b/c')).toBe('a/b|c');
    expect(await read('search://items?q=x&limit=3')).toBe('x|number3');
    expect(await read('tree:///a/b%20c')).toBe('["a","b c"]');
    // An exploded variable takes at most 1,024 items.
    expect(JSON.parse(await read(`tree://${'/a'.repeat(1024)}`))).toHaveLength(1024);
    expect(await errorOf(client.readResource({ uri: `tree://${'/a'.repeat(1025)}` }))).toMatchObject({ code: -32602 });
    await close();
  });

  it('refuses ambiguous neighbours at build, and accepts the unambiguous ones the page names', async () => {
    const built = async (uri: string) => {
      const [a, b] = [...uri.matchAll(/[{,][?&./]?(\w+)/g)].map((m) => m[1]);
      class Templated {
        @Resource(uri) read(@Param(a) x: string, @Param(b, { optional: true }) y: string) {
          return x + y;
        }
      }
      return buildOf([Templated]);
    };
    for (const uri of ['x://{a}{b}', 'x://{name}{.ext}', 'x://{?a}{&b}']) expect(await built(uri)).toContain('follow each other with nothing between them');
    expect(await built('x://{/a*,b}')).toContain("'b' follows the exploded variable 'a'");
    for (const uri of ['users://{id}{?fields}', 'files://{dir}{/name}']) expect(await built(uri)).toBe('built');
  });

  it('maps each kind of return value to contents, the read URI filled in', async () => {
    class Contents {
      @Resource('a://text') text() {
        return { text: 'hi' };
      }
      @Resource('a://list') list() {
        return [{ text: 'one' }, { blob: 'AAAA', mimeType: 'x/y', uri: 'a://other' }];
      }
      @Resource('a://json', { mimeType: 'application/vnd.x+json' }) json() {
        return { a: 1 };
      }
      @Resource('a://bytes') bytes() {
        return new Uint8Array([1, 2, 3]);
      }
    }
    const { client, close } = await connect([Contents]);
    const contents = async (uri: string) => (await client.readResource({ uri })).contents;
    expect(await contents('a://text')).toEqual([{ uri: 'a://text', text: 'hi' }]);
    expect(await contents('a://list')).toEqual([
      { uri: 'a://list', text: 'one' },
      { uri: 'a://other', mimeType: 'x/y', blob: 'AAAA' },
    ]);
    expect(await contents('a://json')).toEqual([{ uri: 'a://json', mimeType: 'application/vnd.x+json', text: '{"a":1}' }]);
    expect(await contents('a://bytes')).toEqual([{ uri: 'a://bytes', blob: 'AQID' }]);
    await close();
  });

  it('answers a guarded resource like an unknown one, -32602 with data.uri, in both eras', async () => {
    class Guarded {
      @UseGuards(() => false) @Resource('secret://x') secret() {
        return 's';
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Guarded] });
    for (const era of ['legacy', 'modern'] as const) {
      const client = await createTestClient(app, { era });
      expect(await errorOf(client.readResource({ uri: 'secret://x' }))).toMatchObject({ code: -32602, data: { uri: 'secret://x' } });
      expect(await errorOf(client.readResource({ uri: 'nothing://x' }))).toMatchObject({ code: -32602, data: { uri: 'nothing://x' } });
      await client.close();
    }
  });

  it('sends cache hints to 2026-07-28 clients: the resource its own, the rest ttlMs 0', async () => {
    class Cached {
      @Resource('config://app', { cache: { ttlMs: 60_000, cacheScope: 'public' } }) config() {
        return 'c';
      }
      @Resource('plain://x') plain() {
        return 'p';
      }
    }
    const client = await createTestClient(await createApp({ name: 'docs', version: '0.0.0', tools: [Cached] }), { era: 'modern' });
    expect(await client.readResource({ uri: 'config://app' })).toMatchObject({ ttlMs: 60_000, cacheScope: 'public' });
    expect(await client.readResource({ uri: 'plain://x' })).toMatchObject({ ttlMs: 0 });
    await client.close();
  });
});

describe('Errors page', () => {
  it('refuses an invalid app cache hint with a ConfigError, and one on @Resource with a BuildError', async () => {
    class Hinted {
      @Resource('a://x', { cache: { ttlMs: -5 } }) x() {
        return 'x';
      }
    }
    class Plain {
      @Resource('a://y') y() {
        return 'y';
      }
    }
    expect(await errorOf(createApp({ name: 'docs', version: '0.0.0', tools: [Hinted] }))).toMatchObject({ kind: 'build', message: expect.stringContaining('Hinted.x: has an invalid cache hint') });
    expect(await errorOf(createApp({ name: 'docs', version: '0.0.0', tools: [Plain], cache: { reads: { ttlMs: -1 } } }))).toMatchObject({
      kind: 'config',
      message: expect.stringContaining("(app option 'cache') is invalid"),
    });
  });
});

describe('Prompts page', () => {
  it('converts string arguments, and answers errors as the page says', async () => {
    class Prompts {
      @Prompt({ description: 'd' }) count(@Param('lines', { integer: true }) lines: number, @Param('on') on: boolean) {
        return `${typeof lines} ${lines} ${typeof on} ${on}`;
      }
      @Prompt({ description: 'd' }) refused(): string {
        throw new ToolError('Pick a smaller file.');
      }
      @Prompt({ description: 'd' }) broken(): string {
        throw new TypeError('the secret internals');
      }
    }
    const { client, close } = await connect([Prompts]);
    expect((await client.getPrompt({ name: 'count', arguments: { lines: '3', on: 'true' } })).messages[0].content).toEqual({ type: 'text', text: 'number 3 boolean true' });
    const bad = await errorOf(client.getPrompt({ name: 'count', arguments: { lines: 'ten', on: 'true' } }));
    expect(bad).toMatchObject({ code: -32602 });
    expect(bad.message).toContain('- lines: must be an integer (got string "ten")');
    expect(await errorOf(client.getPrompt({ name: 'nope' }))).toMatchObject({ code: -32602 });
    const refused = await errorOf(client.getPrompt({ name: 'refused' }));
    expect(refused).toMatchObject({ code: -32603 });
    expect(refused.message).toContain('Pick a smaller file.');
    const broken = await errorOf(client.getPrompt({ name: 'broken' }));
    expect(broken).toMatchObject({ code: -32603 });
    expect(broken.message).not.toContain('secret');
    await close();
  });
});

describe('Prompts page: the snippet', () => {
  it('lists code as required and strictness, which has a default, as optional', async () => {
    const { client, close } = await connect([ReviewPrompts]);
    const review = (await client.listPrompts()).prompts.find((p) => p.name === 'review')!;
    expect(review.arguments).toEqual([
      { name: 'code', description: 'The code to review', required: true },
      { name: 'strictness', required: false },
    ]);
    await close();
  });
});

describe('Completions page', () => {
  it('completes enums and booleans by themselves, cuts at 100, and hides a provider failure', async () => {
    class Trip {
      @Prompt({ description: 'd' })
      plan(
        @Param('mode', { enum: ['Train', 'plane'] }) mode: string,
        @Param('direct') direct: boolean,
        @Param('free') free: string,
        @Param('many', { complete: () => Array.from({ length: 150 }, (_, i) => `v${i}`) }) many: string,
        @Param('own', { complete: () => ({ values: ['a'], total: 7, hasMore: true }) }) own: string,
        @Param('broken', {
          complete: () => {
            throw new Error('the secret internals');
          },
        })
        broken: string,
      ) {
        return [mode, direct, free, many, own, broken].join();
      }
    }
    const { client, close } = await connect([Trip]);
    const complete = (name: string, value = '') => client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name, value } });
    expect((await complete('mode', 'tr')).completion.values).toEqual(['Train']);
    expect((await complete('direct', 'T')).completion.values).toEqual(['true']);
    expect((await complete('free', 'x')).completion.values).toEqual([]);
    const many = (await complete('many')).completion;
    expect(many).toMatchObject({ total: 150, hasMore: true });
    expect(many.values).toEqual(Array.from({ length: 100 }, (_, i) => `v${i}`));
    expect((await complete('own')).completion).toEqual({ values: ['a'], total: 7, hasMore: true });
    const broken = await errorOf(complete('broken'));
    expect(broken).toMatchObject({ code: -32603 });
    expect(broken.message).not.toContain('secret');
    expect(await errorOf(client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }))).toMatchObject({ code: -32602 });
    expect(await errorOf(client.complete({ ref: { type: 'ref/resource', uri: 'nope://{a}' }, argument: { name: 'a', value: '' } }))).toMatchObject({ code: -32602 });
    expect(client.getServerCapabilities()?.completions).toEqual({});
    await close();
  });

  it('declares completions only for an app that serves a prompt or a template', async () => {
    class OnlyTools {
      @Tool({ description: 'd' }) t() {
        return 1;
      }
    }
    const { client, close } = await connect([OnlyTools]);
    expect(client.getServerCapabilities()?.completions).toBeUndefined();
    await close();
  });
});

describe('Call context page', () => {
  it('drops progress that is not finite or does not increase, and cuts a long message', async () => {
    class Progress {
      @Tool({ description: 'd' }) async run(@Ctx() ctx: ToolContext) {
        await ctx.progress(1);
        await ctx.progress(NaN);
        await ctx.progress(1);
        await ctx.progress(Infinity);
        await ctx.progress(2, 3, 'x'.repeat(70_000));
        return 'done';
      }
    }
    const { client, close } = await connect([Progress]);
    const seen: { progress: number; total?: number; message?: string }[] = [];
    client.setNotificationHandler('notifications/progress', (n) => void seen.push(n.params));
    await client.request({ method: 'tools/call', params: { name: 'run', arguments: {}, _meta: { progressToken: 1 } } });
    expect(seen.map((p) => [p.progress, p.total])).toEqual([
      [1, undefined],
      [2, 3],
    ]);
    expect(seen[1].message).toHaveLength(65_536);
    expect(seen[1].message!.endsWith('x…')).toBe(true);
    await close();
  });

  it('sends log lines at or above the connection level (info until logging/setLevel), warn as warning', async () => {
    class Logs {
      @Tool({ description: 'd' }) run(@Ctx() ctx: ToolContext) {
        ctx.log.debug('dbg');
        ctx.log.info('inf');
        ctx.log.warn('wrn');
        ctx.log.info('with a BigInt', { n: 1n });
        return 'done';
      }
    }
    const { client, close } = await connect([Logs]);
    const lines: { level: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void lines.push(n.params));
    await client.callTool({ name: 'run', arguments: {} });
    await client.setLoggingLevel('debug');
    await client.callTool({ name: 'run', arguments: {} });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.map((l) => `${l.level}:${JSON.stringify(l.data)}`)).toEqual([
      'info:"inf"',
      'warning:"wrn"',
      'info:"with a BigInt"',
      'debug:"dbg"',
      'info:"inf"',
      'warning:"wrn"',
      'info:"with a BigInt"',
    ]);
    await close();
  });

  it('answers the questions as the page says: timeouts, forms, client errors cut to 300 characters', async () => {
    class Form {
      @IsString() name!: string;
    }
    class Questions {
      @Tool({ description: 'd', timeoutMs: 50 }) async searchArchive() {
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        return 'late';
      }
      @Tool({ description: 'd' }) async wait(@Ctx() ctx: ToolContext) {
        return JSON.stringify(await ctx.elicit('q', { type: 'object', properties: { name: { type: 'string' } } }, { timeoutMs: 50 }));
      }
      @Tool({ description: 'd' }) async dto(@Ctx() ctx: ToolContext) {
        return JSON.stringify(await ctx.elicit('q', Form));
      }
      @Tool({ description: 'd' }) async open(@Ctx() ctx: ToolContext) {
        return JSON.stringify(await ctx.elicit('q', { type: 'object', properties: { name: { type: 'string' } } }));
      }
      @Tool({ description: 'd' }) async closed(@Ctx() ctx: ToolContext) {
        return JSON.stringify(await ctx.elicit('q', { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false } as never));
      }
      @Tool({ description: 'd' }) async roots(@Ctx() ctx: ToolContext) {
        return JSON.stringify(await ctx.listRoots());
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Questions] });
    const client = await createTestClient(app, { capabilities: { elicitation: {}, roots: {} } });
    let answer: () => unknown = () => new Promise(() => undefined);
    client.setRequestHandler('elicitation/create', () => answer() as never);
    client.setRequestHandler('roots/list', () => {
      throw new Error('E'.repeat(400));
    });
    const call = (name: string) => client.callTool({ name, arguments: {} });
    expect(await call('search_archive')).toEqual({ isError: true, content: [{ type: 'text', text: "Tool 'search_archive' timed out after 50 ms." }] });
    expect(textOf(await call('wait'))).toMatch(/^The client did not answer the elicitation request within 0\.05 s\./);
    answer = () => ({ action: 'accept', content: { name: 'a', extra: 'b' } });
    expect(await call('dto')).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('- extra: is not allowed') }] });
    expect(JSON.parse(textOf(await call('open'))!)).toEqual({ action: 'accept', content: { name: 'a', extra: 'b' } });
    expect(await call('closed')).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('- extra: is not allowed') }] });
    const roots = await call('roots');
    expect(roots.isError).toBe(true);
    expect(/E+/.exec(textOf(roots)!)![0].length).toBeLessThanOrEqual(300);
    await client.close();
  });

  it('pages lists with pageSize and merges changes made within 10 ms into one list_changed', async () => {
    class Many {
      @Tool({ description: 'd' }) a() {
        return 1;
      }
      @Tool({ description: 'd' }) b() {
        return 1;
      }
      @Tool({ description: 'd' }) c() {
        return 1;
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Many], pageSize: 2 });
    const client = await createTestClient(app);
    // The SDK client's listTools() follows nextCursor itself; a plain request shows one page.
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.request({ method: 'tools/list', params: { cursor: first.nextCursor } });
    expect(second.tools.map((t) => t.name)).toEqual(['c']);
    expect(second.nextCursor).toBeUndefined();
    expect(await errorOf(client.request({ method: 'tools/list', params: { cursor: 'not a cursor' } }))).toMatchObject({ code: -32602 });
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    app.tools.disable('a');
    app.tools.disable('b');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(changed).toBe(1);
    expect(await errorOf(client.callTool({ name: 'a', arguments: {} }))).toMatchObject({ code: -32602 });
    await client.close();
  });
});

describe('Middleware page', () => {
  it('runs app, parent class, class and method middleware as an onion', async () => {
    const trace: string[] = [];
    const named = (name: string) => async (_call: MemberCall, next: Next) => {
      trace.push(`>${name}`);
      const result = await next();
      trace.push(`<${name}`);
      return result;
    };
    @UseMiddleware(named('parent'))
    class Base {}
    @UseMiddleware(named('class'))
    class Notes extends Base {
      @UseMiddleware(named('m1'), named('m2'))
      @Tool({ description: 'd' })
      read(@Param('id', { default: 'x' }) id: string) {
        trace.push(`run ${id}`);
        return id;
      }
    }
    const { client, close } = await connect([Notes], { middleware: [named('app')] });
    await client.callTool({ name: 'read', arguments: {} });
    expect(trace.join(' ')).toBe('>app >parent >class >m1 >m2 run x <m2 <m1 <class <parent <app');
    await close();
  });

  it('normalizes a short-circuit value, refuses a second next(), and answers a resource ToolError as a JSON-RPC error', async () => {
    const lines: string[] = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: (...args: unknown[]) => void lines.push(args.map(String).join(' ')) };
    class Members {
      @UseMiddleware(async () => 'cached' as never)
      @Tool({ description: 'd' })
      short() {
        return 'method';
      }
      @UseMiddleware(async (_call: MemberCall, next: Next) => (await next(), next()))
      @Tool({ description: 'd' })
      twice() {
        return 1;
      }
      @UseMiddleware(async () => {
        throw new ToolError('Not today.');
      })
      @Resource('notes://today')
      today() {
        return 'x';
      }
    }
    const { client, close } = await connect([Members], { logger } as never);
    expect(await client.callTool({ name: 'short', arguments: {} })).toEqual({ content: [{ type: 'text', text: 'cached' }] });
    expect(await client.callTool({ name: 'twice', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: "Tool 'twice' failed with an internal error. The server log has the details." }],
    });
    expect(lines.join('\n')).toContain('called next() twice');
    const refused = await errorOf(client.readResource({ uri: 'notes://today' }));
    expect(refused).toMatchObject({ code: -32603 });
    expect(refused.message).toBe('Not today.');
    await close();
  });

  it('caches read-only tools and resource reads, but not isError results or prompts unless asked', async () => {
    let runs = 0;
    class Cachable {
      @Tool({ description: 'd', annotations: { readOnlyHint: true } }) count() {
        return ++runs;
      }
      @Tool({ description: 'd', annotations: { readOnlyHint: true } }) failing(): number {
        throw new ToolError(`failure ${++runs}`);
      }
      @Tool({ description: 'd' }) plain() {
        return ++runs;
      }
      @Resource('counter://x') counter() {
        return String(++runs);
      }
      @Prompt({ description: 'd' }) prompt() {
        return String(++runs);
      }
    }
    const { client, close } = await connect([Cachable], { middleware: [cache({ ttlMs: 60_000 })] });
    const twice = async (get: () => Promise<unknown>) => [JSON.stringify(await get()), JSON.stringify(await get())];
    const same = ([a, b]: string[]) => a === b;
    expect(same(await twice(() => client.callTool({ name: 'count', arguments: {} })))).toBe(true);
    expect(same(await twice(() => client.readResource({ uri: 'counter://x' })))).toBe(true);
    expect(same(await twice(() => client.callTool({ name: 'failing', arguments: {} })))).toBe(false);
    expect(same(await twice(() => client.callTool({ name: 'plain', arguments: {} })))).toBe(false);
    expect(same(await twice(() => client.getPrompt({ name: 'prompt' })))).toBe(false);
    await close();
  });
});

describe('Tools page: glob patterns', () => {
  let dir: string;
  beforeAll(() => {
    // Inside the repository, so the modules' require('@toolwright/core') finds the package this test uses.
    dir = mkdtempSync(join(__dirname, '.globs-'));
    mkdirSync(join(dir, 'dist', 'tools'), { recursive: true });
    // Compiled modules, decorated by hand as the TypeScript compiler's output does.
    const module = (body: string) =>
      `const { Tool, Resource, Prompt } = require('@toolwright/core');\nconst decorate = (decorator, cls, key) => decorator(cls.prototype, key, Object.getOwnPropertyDescriptor(cls.prototype, key));\n${body}`;
    writeFileSync(
      join(dir, 'dist', 'tools', 'notes.js'),
      module(`class NoteTools { count() { return 2; } }
decorate(Tool({ description: 'Count the notes.' }), NoteTools, 'count');
class NoteResources { index() { return 'a\\nb'; } }
decorate(Resource('notes://index'), NoteResources, 'index');
exports.NoteTools = NoteTools;
exports.NoteResources = NoteResources;
exports.Helper = class Helper {};`),
    );
    writeFileSync(
      join(dir, 'dist', 'tools', 'prompts.js'),
      module(`class NotePrompts { summary() { return 'Summarize the notes.'; } }
decorate(Prompt({ description: 'Summarize.' }), NotePrompts, 'summary');
exports.NotePrompts = NotePrompts;`),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves every exported class with @Tool, @Resource or @Prompt methods of the matching modules, resolved against cwd', async () => {
    const app = await createApp({ name: 'globs', version: '1', tools: ['dist/tools/*.js'], cwd: dir });
    const { tools, resources, prompts } = app.registry;
    expect({ tools: tools.map((t) => t.name), resources: resources.map((r) => r.uri), prompts: prompts.map((p) => p.name) }).toEqual({
      tools: ['count'],
      resources: ['notes://index'],
      prompts: ['summary'],
    });
  });
});
