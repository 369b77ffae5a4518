/**
 * Pins what the guide pages on testing, schemas, composition, extensions, skills, MCP Apps and
 * observability say a client sees, for the statements no snippet test covers. Each case builds
 * an app with `createApp` and drives it through the real SDK client.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Args, compileSchemaValidator, Ctx, Param, Prompt, Resource, Tool, ToolError, ToolwrightError, UiResource, type ToolContext } from '@toolwright/core';
import { IsString, MinLength } from '@toolwright/core/dto';
import { apps, createApp, defineExtension, ErrorCodes, ProtocolError, skills, type Extension } from '@toolwright/server';
import { proxyServer } from '@toolwright/server/proxy';
import { createTestClient, toolError, toolSchema, toolText } from '@toolwright/server/testing';
import * as z from 'zod';
import { connect, textOf } from './helpers';

let stderr: jest.SpyInstance;
beforeAll(() => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
});
afterAll(() => stderr.mockRestore());

type Failure = Error & { code?: number; data?: unknown };
/** What a promise rejects with; a promise that resolves fails the test. */
const rejection = <T>(promise: Promise<T>): Promise<Failure> =>
  promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${JSON.stringify(value)}`);
    },
    (error: Failure) => error,
  );
const anyResult = z.object({}).passthrough();

class Echo {
  @Tool({ description: 'Echo the text.' }) echo(@Param('text') text: string) {
    return text;
  }
}

describe('Testing page', () => {
  it('a closed client stays closed, and says so', async () => {
    const { client } = await connect([Echo]);
    await client.close();
    for (const call of [client.callTool({ name: 'echo', arguments: { text: 'a' } }), client.listTools()] as Promise<unknown>[]) {
      const error = await rejection(call);
      expect(error.message).toContain('closed');
      expect(error.message).toContain('createTestClient');
    }
  });

  it('answers questions from a list in order, the last one answering any further question', async () => {
    class Asker {
      @Tool({ description: 'Ask three times.' }) async ask(@Ctx() ctx: ToolContext) {
        const answers: unknown[] = [];
        for (let i = 0; i < 3; i++) answers.push(await ctx.elicit(`question ${i}`, { type: 'object', properties: { n: { type: 'integer' } } }));
        return answers;
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Asker] });
    const client = await createTestClient(app, {
      elicitation: [
        { action: 'accept', content: { n: 1 } },
        { action: 'accept', content: { n: 2 } },
      ],
    });
    expect(JSON.parse(await toolText(client.callTool({ name: 'ask', arguments: {} })))).toEqual([
      { action: 'accept', content: { n: 1 } },
      { action: 'accept', content: { n: 2 } },
      { action: 'accept', content: { n: 2 } },
    ]);
    await client.close();
  });

  it('hands `auth` to the app as the AuthInfo the page shows', async () => {
    class Who {
      @Tool({ description: 'Who is calling.' }) who(@Ctx() ctx: ToolContext) {
        return ctx.authInfo;
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Who] });
    const client = await createTestClient(app, { auth: { scopes: ['read'], roles: ['admin'], claims: { sub: 'u1', tier: 'gold' }, clientId: 'c1', token: 't1', expiresAt: 123 } });
    expect(JSON.parse(await toolText(client.callTool({ name: 'who', arguments: {} })))).toEqual({
      token: 't1',
      clientId: 'c1',
      scopes: ['read'],
      expiresAt: 123,
      extra: { roles: ['admin'], claims: { sub: 'u1', tier: 'gold' }, sub: 'u1' },
    });
    await client.close();
  });

  it('refuses an override nothing injects, naming it and what the app injects, and overrides of the wrong shape', async () => {
    class Unused {}
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Echo] });
    const unused = await rejection(createTestClient(app, { overrides: [[Unused, new Unused()]] }));
    expect(unused.message).toContain('Unused');
    expect(unused.message).toContain('inject: Echo');
    expect((await rejection(createTestClient(app, { overrides: { Unused } as never }))).message).toContain('must be a Map or a list of [class, instance] pairs');
  });

  it('gathers every page in list calls; one page is a plain request', async () => {
    class More {
      @Tool({ description: 'a' }) a() {
        return 1;
      }
      @Tool({ description: 'b' }) b() {
        return 2;
      }
    }
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Echo, More], pageSize: 1 });
    const client = await createTestClient(app);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'a', 'b']);
    const page = (await client.request({ method: 'tools/list', params: {} })) as { tools: unknown[]; nextCursor?: string };
    expect(page.tools).toHaveLength(1);
    expect(page.nextCursor).toEqual(expect.any(String));
    await client.close();
  });

  it('assertion helpers throw plain errors that say what went the other way', async () => {
    const { client, close } = await connect([Echo]);
    const listed = await rejection(toolSchema(client, 'nope'));
    expect(listed.message).toBe("No tool named 'nope' is listed. The tools are: echo.");
    const succeeded = await rejection(toolError(client.callTool({ name: 'echo', arguments: { text: 'x' } })));
    expect(succeeded.message).toContain('Expected the tool to return an error');
    expect(succeeded).not.toBeInstanceOf(ToolwrightError);
    await close();
  });
});

describe('Schemas page', () => {
  class Loose {
    @Tool({ description: 'Take anything.', inputSchema: { type: 'object', properties: { xs: { type: 'array', items: { type: 'integer' } }, deep: {} } } })
    loose() {
      return 'ran';
    }
    @Tool({ description: 'An integer.' }) num(@Param('n', { integer: true }) n: number) {
      return String(n);
    }
    @Tool({ description: 'A flag.' }) flag(@Param('b') b: boolean) {
      return String(b);
    }
  }
  const nested = (levels: number): unknown => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  };

  it('refuses arguments nested deeper than 1,000 levels with one line, and lists at most 20 problems', async () => {
    const { client, close } = await connect([Loose]);
    const deep = textOf(await client.callTool({ name: 'loose', arguments: { deep: nested(1001) } }))!;
    expect(deep.split('\n')).toHaveLength(2);
    expect(deep).toContain('nests deeper than 1000 levels of objects and arrays');
    expect(textOf(await client.callTool({ name: 'loose', arguments: { deep: nested(998) } }))).toBe('ran');
    const many = textOf(await client.callTool({ name: 'loose', arguments: { xs: Array.from({ length: 30 }, () => 'a') } }))!.split('\n');
    expect(many).toHaveLength(22); // the heading, 20 problems, the count of the rest
    expect(many[21]).toMatch(/10 more/);
    expect(textOf(await client.callTool({ name: 'loose', arguments: { xs: Array.from({ length: 150 }, () => 'a') } }))).toContain('the check stopped after 100');
    await close();
  });

  it('refuses strings for numbers unless asked, then takes only the JSON spelling', async () => {
    const strict = await connect([Loose]);
    expect(textOf(await strict.client.callTool({ name: 'num', arguments: { n: '5' } }))).toContain('must be an integer');
    await strict.close();
    const { client, close } = await connect([Loose], { coerce: true });
    const num = async (n: string) => textOf(await client.callTool({ name: 'num', arguments: { n } }));
    expect(await num('12')).toBe('12');
    for (const spelling of ['0x0c', '+12', '012', '12.0', '1.2e1', ' 12']) expect(await num(spelling)).toContain('must be an integer');
    expect(await num('9007199254740993')).toContain('to be converted exactly');
    expect(textOf(await client.callTool({ name: 'flag', arguments: { b: 'true' } }))).toBe('true');
    await close();
  });

  it("puts a decorator's own message in place of Toolwright's line, but not for a missing value", async () => {
    class NameInput {
      @IsString() @MinLength(3, { message: 'Type at least $constraint1 characters for $property' }) name!: string;
    }
    class Named {
      @Tool({ description: 'Take a name.' }) named(@Args() input: NameInput) {
        return input.name;
      }
    }
    const { client, close } = await connect([Named]);
    expect(textOf(await client.callTool({ name: 'named', arguments: { name: 'ab' } }))).toContain('name: Type at least 3 characters for name');
    expect(textOf(await client.callTool({ name: 'named', arguments: {} }))).toContain('name: is required');
    const [tool] = (await client.listTools()).tools;
    expect(JSON.stringify(tool.inputSchema)).not.toContain('Type at least');
    await close();
  });

  it('compileSchemaValidator returns issues, and refuses keywords outside the profile naming them', () => {
    const check = compileSchemaValidator({ type: 'object', properties: { a: { type: 'integer' } } });
    expect(check({ a: 1 })).toEqual({ ok: true, value: { a: 1 } });
    expect(check({ a: 'x' })).toEqual({ ok: false, issues: [{ path: 'a', message: expect.stringContaining('must be an integer') }] });
    const refusals: [object, string][] = [
      [{ unevaluatedProperties: false }, 'additionalProperties: false'],
      [{ definitions: {} }, '$defs'],
      [{ dependencies: {} }, 'dependentRequired'],
      [{ additionalItems: false }, 'prefixItems'],
      [{ items: [{}] }, 'prefixItems'],
      [{ exclusiveMinimum: true }, 'exclusiveMinimum: 5'],
      [{ $anchor: 'x' }, '$defs'],
      [{ $dynamicRef: '#x' }, '$ref'],
      [{ $ref: 'https://example.com/schema' }, 'remote references are not fetched'],
    ];
    for (const [schema, fix] of refusals) {
      let message = 'no error';
      try {
        compileSchemaValidator(schema as never);
      } catch (error) {
        expect((error as Error).name).toBe('BuildError');
        message = (error as Error).message;
      }
      expect(message).toContain(fix);
    }
    // An unknown format is an annotation.
    expect(compileSchemaValidator({ type: 'string', format: 'color' })('anything').ok).toBe(true);
  });
});

describe('Composition page', () => {
  class InvoiceTools {
    @Tool({ description: 'Create an invoice.' }) createInvoice(@Param('customer') customer: string) {
      return customer;
    }
    @Resource('billing://invoices/{id}') invoice(@Param('id') id: string) {
      return `billing ${id}`;
    }
  }
  class Shortcuts {
    @Tool({ description: 'A shortcut.', name: 'billing_create_invoice' }) createInvoice() {
      return 'shortcut';
    }
  }
  class ParentInvoices {
    @Resource('billing://invoices/{number}') invoice(@Param('number') n: string) {
      return `parent ${n}`;
    }
  }
  class LongName {
    @Tool({ description: 'd', name: 'x'.repeat(120) }) long() {
      return 1;
    }
  }

  it('checks namespaces and the length of prefixed names', async () => {
    const billing = await createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools] });
    for (const namespace of ['', 'a'.repeat(65), 'a b']) {
      const error = await rejection(createApp({ name: 'p', version: '1.0.0', tools: [Echo], mount: [{ app: billing, namespace }] }));
      expect(error.name).toBe('ConfigError');
      expect(error.message).toContain("must be 1-64 letters, digits, '_', '.' or '-'");
    }
    await expect(createApp({ name: 'p', version: '1.0.0', tools: [Echo], mount: [{ app: billing, namespace: 'a'.repeat(64) }] })).resolves.toBeDefined();
    const long = await createApp({ name: 'l', version: '1.0.0', tools: [LongName] });
    expect((await rejection(createApp({ name: 'p', version: '1.0.0', tools: [Echo], mount: [{ app: long, namespace: 'namespace' }] }))).message).toContain('tool names may have at most 128');
  });

  it('reports a clash as the page shows, and an app mounted twice clashes on its URIs', async () => {
    const billing = await createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools] });
    const clash = await rejection(createApp({ name: 'p', version: '1.0.0', tools: [Shortcuts], mount: [{ app: billing, namespace: 'billing' }] }));
    expect(clash.message).toBe(
      [
        'Toolwright cannot build this app (1 problem):',
        "  1. tool 'billing_create_invoice': served by both Shortcuts.createInvoice (this app) and InvoiceTools.createInvoice (mount 'billing')",
        "     Fix: rename one of them (its decorator's `name` or `uri`), choose another namespace, or disable one before mounting.",
      ].join('\n'),
    );
    const twice = await rejection(
      createApp({
        name: 'p',
        version: '1.0.0',
        tools: [Echo],
        mount: [
          { app: billing, namespace: 'a' },
          { app: billing, namespace: 'b' },
        ],
      }),
    );
    expect(twice.message).toContain("resource template 'billing://invoices/{id}': served by both");
  });

  it("tries the parent's own templates first", async () => {
    const billing = await createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools] });
    const parent = await createApp({ name: 'p', version: '1.0.0', tools: [ParentInvoices], mount: [{ app: billing, namespace: 'billing' }] });
    const client = await createTestClient(parent);
    expect((await client.readResource({ uri: 'billing://invoices/7' })).contents[0]).toMatchObject({ text: 'parent 7' });
    await client.close();
  });

  it('refuses a mount into itself or into an app it serves with a ConfigError; a mount after the app stopped starts when the app starts again', async () => {
    const billing = await createApp({ name: 'billing', version: '1.0.0', tools: [InvoiceTools] });
    expect((await rejection(billing.mount(billing, { namespace: 'self' }))).name).toBe('ConfigError');
    const parent = await createApp({ name: 'p', version: '1.0.0', tools: [Echo], mount: [{ app: billing, namespace: 'billing' }] });
    expect((await rejection(billing.mount(parent, { namespace: 'cycle' }))).name).toBe('ConfigError');
    await parent.start();
    await parent.stop();
    const started: string[] = [];
    const later = await createApp({ name: 'later', version: '1.0.0', tools: [Shortcuts], onStart: () => void started.push('later') });
    await parent.mount(later, { namespace: 'later' });
    expect(started).toEqual([]);
    await parent.start();
    expect(started).toEqual(['later']);
    await parent.stop();
  });
});

describe('Extensions page', () => {
  const search = defineExtension({
    id: 'com.acme/search',
    requests: {
      'acme/search': {
        params: { type: 'object', properties: { query: { type: 'string', minLength: 1 } }, required: ['query'] },
        handle: (params: { query: string }, ctx) => ({ keys: Object.keys(params), era: ctx.era, declared: ctx.clientExtension() ?? null }),
      },
      'acme/not-an-object': { handle: () => 'text' as never },
      'acme/missing': {
        handle: () => {
          throw new ProtocolError(ErrorCodes.ResourceNotFound, 'No such index.', { uri: 'acme://index/x' });
        },
      },
      'acme/own-code': {
        handle: () => {
          throw Object.assign(new Error('Busy.'), { code: -32001 });
        },
      },
      'acme/library': {
        handle: () => {
          throw Object.assign(new Error('connect ECONNREFUSED db.internal:5432'), { code: 14 });
        },
      },
    },
  });
  const strict = defineExtension({ id: 'com.acme/strict', requireClientDeclaration: true, requests: { 'acme/strict': { handle: () => ({ ok: true }) } } });

  it('refuses a definition that breaks a rule with a ConfigError', () => {
    const problems: [object, string][] = [
      [{ id: 'search' }, 'is not an extension identifier'],
      [{ id: 'com.acme/x', requests: { 'tools/call': { handle: () => ({}) } } }, "'tools/call' is the protocol's own"],
      [{ id: 'com.acme/x', requests: { 'acme/x': {} } }, 'needs a handle(params, ctx) function'],
      [{ id: 'com.acme/x', settings: { f: () => 1 } }, 'which JSON cannot carry'],
    ];
    for (const [definition, says] of problems) {
      expect(() => defineExtension(definition as Extension)).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(says) }));
    }
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('answers each case with the code the page gives (%s)', async (protocol) => {
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Echo], extensions: [search, strict] });
    const client = await createTestClient(app, { protocol, capabilities: { extensions: { 'com.acme/search': { mode: 'fuzzy' } } } });
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'com.acme/search': {}, 'com.acme/strict': {} });
    const send = (method: string, params: Record<string, unknown> = {}) => client.request({ method, params }, anyResult);
    expect(await send('acme/search', { query: 'tea', _meta: { trace: 'x' } })).toMatchObject({
      keys: ['query'],
      era: protocol === '2026-07-28' ? 'modern' : 'legacy',
      declared: { mode: 'fuzzy' },
    });
    expect(await rejection(send('acme/search', { query: '' }))).toMatchObject({ code: -32602, message: expect.stringContaining('params.query') });
    expect(await rejection(send('acme/not-an-object'))).toMatchObject({ code: -32603 });
    // The SDK sends -32002 as -32602 in both eras, with the data kept.
    expect(await rejection(send('acme/missing'))).toMatchObject({ code: -32602, message: 'No such index.', data: { uri: 'acme://index/x' } });
    expect(await rejection(send('acme/own-code'))).toMatchObject({ code: -32001, message: 'Busy.' });
    const library = await rejection(send('acme/library'));
    expect(library).toMatchObject({ code: -32603, message: 'Internal error' });
    expect(JSON.stringify(library.data ?? null)).not.toContain('db.internal');
    expect(await rejection(send('toString'))).toMatchObject({ code: -32601 });
    expect(await rejection(send('acme/strict'))).toMatchObject({ code: -32021, data: { requiredCapabilities: { extensions: { 'com.acme/strict': {} } } } });
    await client.close();
  });
});

describe('Skills page', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwright-skills-'));
    mkdirSync(join(dir, 'code-review', 'references'), { recursive: true });
    writeFileSync(join(dir, 'code-review', 'SKILL.md'), '---\nname: code-review\ndescription: Review a change for bugs.\n---\nRead the diff.\n');
    writeFileSync(join(dir, 'code-review', 'references', 'checklist.md'), '# Checklist\n');
    mkdirSync(join(dir, 'broken', 'deploy'), { recursive: true });
    writeFileSync(join(dir, 'broken', 'deploy', 'SKILL.md'), '---\nname: shipit\ndescription: Ship it.\n---\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(['2025-11-25', '2026-07-28'] as const)('serves the capability, the lists, the refusals and the cache hints the page gives (%s)', async (protocol) => {
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Echo], extensions: [skills({ dir: mkSkillsOnly(dir) })] });
    const client = await createTestClient(app, { protocol });
    expect(client.getServerCapabilities()?.extensions).toEqual({ 'io.modelcontextprotocol/skills': { directoryRead: true } });
    const send = (method: string, params: Record<string, unknown>) => client.request({ method, params }, anyResult) as Promise<Record<string, unknown>>;
    const list = await send('skills/list', {});
    expect(list.skills).toEqual([
      expect.objectContaining({
        uri: 'skill://code-review/SKILL.md',
        frontmatter: { name: 'code-review', description: 'Review a change for bugs.' },
        resources: expect.arrayContaining([expect.objectContaining({ digest: expect.stringMatching(/^sha256:/), size: expect.any(Number) })]),
      }),
    ]);
    const hints = protocol === '2026-07-28' ? { ttlMs: 0, cacheScope: 'private' } : {};
    expect({ ttlMs: list.ttlMs, cacheScope: list.cacheScope }).toEqual({ ttlMs: undefined, cacheScope: undefined, ...hints });
    expect(await rejection(send('skills/get', { uri: 'skill://nope/SKILL.md' }))).toMatchObject({ code: -32602 });
    expect((await send('resources/directory/read', { uri: 'skill://code-review' })).resources).toEqual(
      expect.arrayContaining([expect.objectContaining({ uri: 'skill://code-review/references', mimeType: 'inode/directory' })]),
    );
    expect(await rejection(send('resources/directory/read', { uri: 'skill://code-review/SKILL.md' }))).toMatchObject({ code: -32602 });
    expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: 'skill://code-review/SKILL.md', name: 'code-review', mimeType: 'text/markdown' })]);
    await client.close();
  });

  it('refuses a broken skill at build time with the message the page shows, and a file changed after startup with -32603', async () => {
    const broken = await rejection(createApp({ name: 'docs', version: '0.0.0', tools: [Echo], extensions: [skills({ dir: join(dir, 'broken') })] }));
    expect(broken.name).toBe('BuildError');
    expect(broken.message).toContain('1. skills deploy/SKILL.md: frontmatter name "shipit" must match the last path segment "deploy"');
    const served = mkSkillsOnly(dir);
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Echo], extensions: [skills({ dir: served })] });
    const client = await createTestClient(app);
    const uri = 'skill://code-review/references/checklist.md';
    expect((await client.readResource({ uri })).contents[0]).toMatchObject({ text: '# Checklist\n' });
    writeFileSync(join(served, 'code-review', 'references', 'checklist.md'), '# Changed\n');
    expect(await rejection(client.readResource({ uri }))).toMatchObject({ code: -32603 });
    await client.close();
  });
});

/** A folder holding only the good skill (a copy per call, so a test may change it). */
function mkSkillsOnly(root: string): string {
  const copy = mkdtempSync(join(root, 'served-'));
  mkdirSync(join(copy, 'code-review', 'references'), { recursive: true });
  writeFileSync(join(copy, 'code-review', 'SKILL.md'), '---\nname: code-review\ndescription: Review a change for bugs.\n---\nRead the diff.\n');
  writeFileSync(join(copy, 'code-review', 'references', 'checklist.md'), '# Checklist\n');
  return copy;
}

describe('MCP Apps page', () => {
  class Counter {
    @UiResource('ui://counter', { title: 'Counter' }) view() {
      return '<p>0</p>';
    }
    @Tool({ description: 'Show the counter.', ui: { resource: 'ui://counter' } }) showCounter() {
      return { count: 0, text: 'The counter is at 0.' };
    }
    @Tool({ description: 'Increment the counter.', ui: { resource: 'ui://counter', visibility: ['app'] } }) increment() {
      return 'incremented';
    }
  }

  it('lists app-only tools only to clients that declared the extension, and answers others as for an unknown tool', async () => {
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Counter], extensions: [apps()] });
    const plain = await createTestClient(app);
    expect((await plain.listTools()).tools.map((t) => [t.name, t._meta])).toEqual([['show_counter', { ui: { resourceUri: 'ui://counter' }, 'ui/resourceUri': 'ui://counter' }]]);
    expect(await rejection(plain.callTool({ name: 'increment', arguments: {} }))).toMatchObject({ message: expect.stringContaining("Unknown tool 'increment'") });
    expect((await plain.listResources()).resources).toEqual([expect.objectContaining({ uri: 'ui://counter', mimeType: 'text/html;profile=mcp-app' })]);
    await plain.close();
    const host = await createTestClient(app, { capabilities: { extensions: { 'io.modelcontextprotocol/ui': {} } } });
    expect((await host.listTools()).tools.map((t) => t.name)).toEqual(['show_counter', 'increment']);
    expect(await toolText(host.callTool({ name: 'increment', arguments: {} }))).toBe('incremented');
    await host.close();
  });

  it('refuses view options hosts would drop or misread, with a ConfigError naming each', () => {
    const refusals: [object, string][] = [
      [{ csp: { connect: ['https://a.example'] } }, 'csp.connect'],
      [{ csp: { connectDomains: ['https://a.example; script-src *'] } }, 'is not an origin'],
      [{ permissions: { camera: true } }, 'permissions.camera'],
      [{ prefersBorder: 'yes' }, 'prefersBorder'],
    ];
    for (const [options, says] of refusals) {
      expect(() => UiResource('ui://x', options as never)).toThrow(expect.objectContaining({ name: 'ConfigError', message: expect.stringContaining(says) }));
    }
  });
});

describe('Proxy page', () => {
  it('rejects wrong options and an upstream it cannot reach with a ConfigError naming what to fix', async () => {
    const refusals: [Parameters<typeof proxyServer>[0], string][] = [
      [{ url: 'http://127.0.0.1:1/mcp', maxLogLinesPerSecond: 0 }, 'maxLogLinesPerSecond is 0. Give a positive integer.'],
      [{ url: 'ftp://example.com/mcp' }, 'url must be http: or https:'],
      [{} as never, 'needs exactly one of `url`'],
      [{ url: 'http://127.0.0.1:1/mcp' }, "could not connect to upstream 'http://127.0.0.1:1/mcp'"],
    ];
    for (const [options, says] of refusals) {
      const error = await rejection(proxyServer(options));
      expect(error.name).toBe('ConfigError');
      expect(error.message).toContain(says);
    }
  });
});

describe('Observability page', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => {
    trace.setGlobalTracerProvider(provider);
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  });
  afterAll(() => {
    trace.disable();
    context.disable();
  });

  class Traced {
    @Tool({ description: 'Fail.' }) fail() {
      throw new ToolError('The order is closed.');
    }
    @Tool({ description: 'Take secrets.' }) login(@Param('password') password: string, @Param('profile', { schema: { type: 'object' } }) profile: object, @Param('note') note: string) {
      return password.length + JSON.stringify(profile).length + note.length;
    }
    @Prompt({ description: 'A brief.' }) brief() {
      return 'Be brief.';
    }
  }

  it('names spans, marks errors and redacts arguments as the page says', async () => {
    const app = await createApp({ name: 'docs', version: '0.0.0', tools: [Traced], telemetry: { recordArguments: true, recordResults: true } });
    const client = await createTestClient(app);
    await rejection(client.callTool({ name: 'no_such_tool', arguments: {} }));
    await client.callTool({ name: 'fail', arguments: {} });
    await client.callTool({
      name: 'login',
      arguments: { password: 'p', profile: { apiKey: 'k', deep: { access_token: 't', clientSecret: 's', requestState: 'r', cookie: 'c', plain: 1 } }, note: 'x'.repeat(5000) },
    });
    await rejection(client.getPrompt({ name: 'no_such_prompt' }));
    await client.close();
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => spans.filter((s) => s.name === name);

    const [unknownTool] = named('tools/call');
    expect(unknownTool.attributes).toMatchObject({ 'gen_ai.tool.name': '_OTHER', 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknownTool.status).toMatchObject({ code: 2, message: expect.stringContaining('no_such_tool') });

    const [failed] = named('tools/call fail');
    expect(failed.attributes['error.type']).toBe('tool_error');
    expect(failed.status.code).toBe(2);

    const [login] = named('tools/call login');
    const recorded = login.attributes['gen_ai.tool.call.arguments'] as string;
    expect(recorded).toHaveLength(4096);
    expect(recorded).toContain('"password":"[REDACTED]"');
    for (const key of ['apiKey', 'access_token', 'clientSecret', 'requestState', 'cookie']) expect(recorded).toContain(`"${key}":"[REDACTED]"`);
    expect(recorded).toContain('"plain":1');

    expect(named('prompts/get')[0].attributes).toMatchObject({ 'gen_ai.prompt.name': '_OTHER' });
  });
});
