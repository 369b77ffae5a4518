import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ConfigError, Ctx, MCP_APP_MIME_TYPE, Param, Tool, UiResource, UI_EXTENSION, type ToolContext, type UiResourceOptions } from '@toolwright/core';
import { apps, createApp, defineExtension, MemoryTaskStore, ProtocolError, skills, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { createTestClient } from '@toolwright/server/testing';
import { modernRequest } from './fixtures/modernRequest';

/**
 * Hostile input to the 2026 extensions, sent by real clients: the SDK v2 client in both eras,
 * and raw 2026-07-28 JSON-RPC through the app's fetch handler where the SDK client would not
 * send it (it refuses task handles). Each block holds the regression tests of a defect the sweep
 * found (a tasks/update from a 2025 session that took the answers, announced skill files that
 * could not be read, unchecked _meta.ui of views, third party error messages on the wire) beside
 * the probes that held: the server answers with the spec's codes, loses nothing the client gave,
 * and keeps serving.
 */
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const ANY = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
type Client = Awaited<ReturnType<typeof createTestClient>>;
const request = (client: Client, method: string, params: Record<string, unknown>) => client.request({ method, params } as never, ANY as never) as Promise<Record<string, unknown>>;
const errorOf = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message }),
  );

class Jobs {
  @Tool({ description: 'Asks for confirmation, then answers.', task: 'required' })
  async confirm(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Go on?', CONFIRM as never, { key: 'confirm' });
    return answer.action === 'accept' && (answer.content as { confirm?: boolean }).confirm ? 'went on' : 'stopped';
  }
}

class Plain {
  @Tool({ description: 'Echoes the text.' })
  echo(@Param('text') text: string, @Param('fail', { type: () => Boolean, optional: true }) _fail: boolean | undefined) {
    return text;
  }
}

describe('the tasks extension under hostile input', () => {
  let app: App;
  let handler: FetchHandler;
  const raw = (method: string, params: Record<string, unknown>) => modernRequest(handler, method, params, { capabilities: declaring });
  /** Polls tasks/get (each poll a real request) until the task leaves `working`. */
  async function settled(taskId: string): Promise<Record<string, unknown>> {
    for (let i = 0; i < 500; i++) {
      const task = await raw('tasks/get', { taskId });
      if (task.status !== 'working') return task;
      await new Promise((r) => setImmediate(r));
    }
    throw new Error(`task ${taskId} stayed working`);
  }

  beforeAll(async () => {
    app = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs], extensions: [tasks({ store: new MemoryTaskStore() })] });
    handler = createFetchHandler(app, { logError: () => undefined });
  });
  afterAll(() => handler.close());

  it('refuses tasks/update from a 2025-11-25 session before it changes the task: the question stays open for a 2026-07-28 answer', async () => {
    const { taskId } = await raw('tools/call', { name: 'confirm', arguments: {} });
    expect(await settled(taskId as string)).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    const legacy = await createTestClient(app, { protocol: '2025-11-25', capabilities: declaring } as never);
    try {
      const refused = await errorOf(request(legacy, 'tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } }));
      expect(refused).toEqual({ code: -32600, message: expect.stringContaining('only on 2026-07-28 requests') });
    } finally {
      await legacy.close();
    }
    // Nothing was taken: the task still asks, and the 2026-07-28 answer finishes it.
    expect(await raw('tasks/get', { taskId })).toMatchObject({ status: 'input_required', inputRequests: { confirm: { method: 'elicitation/create' } } });
    await raw('tasks/update', { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } } });
    expect(await settled(taskId as string)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'went on' }] } });
  });
});

describe('the skills extension under hostile input', () => {
  /** Files whose names a URI must percent-encode: a space, non-ASCII, '?', '#', '%', in a folder with a space. */
  const FILES: Record<string, string> = {
    'notes/SKILL.md': '---\nname: notes\ndescription: Notes with awkward file names.\n---\nRead the files.\n',
    'notes/a b.md': 'spaced',
    'notes/é.md': 'accented',
    'notes/q?x.md': 'question',
    'notes/h#x.md': 'hash',
    'notes/100%.md': 'percent',
    'notes/sub dir/deep.txt': 'deep',
  };
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-skills-hostile-'));
    for (const [path, text] of Object.entries(FILES)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe.each([
    ['2025-11-25', 'memory', undefined],
    ['2026-07-28', 'memory', undefined],
    ['2026-07-28', 'http', undefined],
    ['2026-07-28', 'memory', 'acme'],
  ] as const)('%s over %s, prefix %s', (protocol, transport, prefix) => {
    let client: Client;
    const root = `skill://${prefix ? `${prefix}/` : ''}notes`;
    beforeAll(async () => {
      const app = await createApp({ name: 'skilled', version: '1.0.0', tools: [Plain], extensions: [skills({ dir, ...(prefix && { prefix }) })] });
      client = await createTestClient(app, { protocol, transport } as never);
    });
    afterAll(() => client.close());

    it('reads every file skills/list announces, at the URI it announced, whatever its name', async () => {
      const {
        skills: [skill],
      } = (await request(client, 'skills/list', {})) as { skills: { resources: { uri: string }[] }[] };
      const uris = skill!.resources.map((r) => r.uri);
      expect(uris).toHaveLength(Object.keys(FILES).length);
      const texts = new Map<string, string>();
      for (const uri of uris) {
        const { contents } = await client.readResource({ uri });
        expect(contents).toEqual([expect.objectContaining({ uri })]);
        texts.set(uri, (contents[0] as { text: string }).text);
      }
      expect(texts.get(`${root}/a%20b.md`)).toBe('spaced');
      expect(texts.get(`${root}/%C3%A9.md`)).toBe('accented');
      expect(texts.get(`${root}/q%3Fx.md`)).toBe('question');
      expect(texts.get(`${root}/h%23x.md`)).toBe('hash');
      expect(texts.get(`${root}/100%25.md`)).toBe('percent');
      expect(texts.get(`${root}/sub%20dir/deep.txt`)).toBe('deep');
    });

    it('names the children of a folder as the file system does, each at a URI that reads', async () => {
      const { resources } = (await request(client, 'resources/directory/read', { uri: root })) as { resources: { uri: string; name: string }[] };
      expect(resources.map((r) => r.name).sort()).toEqual(['100%.md', 'SKILL.md', 'a b.md', 'h#x.md', 'q?x.md', 'sub dir', 'é.md']);
      const sub = resources.find((r) => r.name === 'sub dir')!;
      const { resources: deep } = (await request(client, 'resources/directory/read', { uri: sub.uri })) as { resources: { uri: string; name: string }[] };
      expect(deep).toEqual([expect.objectContaining({ uri: `${root}/sub%20dir/deep.txt`, name: 'deep.txt' })]);
    });

    it('refuses traversal, encoded or not, Object.prototype names and a 1 MB URI with -32602 (the URI not sent back), and keeps serving', async () => {
      for (const uri of [
        'skill://../../etc/passwd',
        `${root}/../../../etc/passwd`,
        `${root}/%2e%2e/%2e%2e/etc/passwd`,
        `${root}/..%2F..%2Fetc%2Fpasswd`,
        `${root}/%252e%252e/SKILL.md`,
        `${root}/__proto__`,
        'skill://constructor/SKILL.md',
        `${root}/a b.md/..`,
      ]) {
        expect(await errorOf(client.readResource({ uri }))).toMatchObject({ code: -32602, message: expect.stringContaining('Resource not found') });
      }
      for (const uri of ['__proto__', `${root}/../notes/SKILL.md`]) expect(await errorOf(request(client, 'skills/get', { uri }))).toMatchObject({ code: -32602 });
      expect(await errorOf(request(client, 'resources/directory/read', { uri: `${root}/sub%20dir/..` }))).toMatchObject({ code: -32602 });
      // A 1 MB URI is described, not sent back: the answer stays small.
      const huge = `${root}/${'x'.repeat(1 << 20)}`;
      for (const method of ['skills/get', 'resources/directory/read']) {
        const answer = await request(client, method, { uri: huge }).then(
          () => undefined,
          (e: { code?: unknown; message: string; data?: unknown }) => e,
        );
        expect(answer).toMatchObject({ code: -32602, message: expect.stringContaining(`a URI of ${huge.length} characters, longer than any this server serves`) });
        expect(JSON.stringify([answer!.message, answer!.data]).length).toBeLessThan(400);
      }
      expect((await client.readResource({ uri: `${root}/SKILL.md` })).contents).toEqual([expect.objectContaining({ mimeType: 'text/markdown' })]);
    });
  });
});

describe('the MCP Apps extension under hostile input', () => {
  class Views {
    @UiResource('ui://__proto__', { name: 'constructor', title: 'toString', csp: { connectDomains: ['https://api.example.com', 'wss://live.example.com'] } })
    view() {
      return '<!doctype html><p>view</p>';
    }

    @Tool({ description: 'Shows the view.', ui: { resource: 'ui://__proto__' } })
    show() {
      return 'shown';
    }
  }

  it.each(['2025-11-25', '2026-07-28'] as const)('serves a view and its link named after Object.prototype members (%s)', async (protocol) => {
    const app = await createApp({ name: 'views', version: '1.0.0', tools: [Views], extensions: [apps()] });
    const client = await createTestClient(app, { protocol, capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } } as never);
    try {
      expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: 'ui://__proto__', name: 'constructor', title: 'toString' })]);
      expect((await client.readResource({ uri: 'ui://__proto__' })).contents).toEqual([expect.objectContaining({ uri: 'ui://__proto__', mimeType: MCP_APP_MIME_TYPE })]);
      expect((await client.listTools()).tools[0]!._meta).toEqual({ ui: { resourceUri: 'ui://__proto__' }, 'ui/resourceUri': 'ui://__proto__' });
      for (const uri of ['ui://constructor', 'ui://toString', 'ui://__proto__/../__proto__', 'ui://__proto__%00']) expect(await errorOf(client.readResource({ uri }))).toMatchObject({ code: -32602 });
    } finally {
      await client.close();
    }
  });

  it('refuses _meta.ui fields a host would drop or read as another CSP directive, naming each', () => {
    const refused = (options: object) => {
      try {
        UiResource('ui://v', options as UiResourceOptions);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(options)}`);
    };
    expect(refused({ csp: { connectDomain: ['https://api.example.com'] } })).toContain(
      'csp.connectDomain is not a CSP list of MCP Apps: use connectDomains, resourceDomains, frameDomains, baseUriDomains',
    );
    expect(refused({ csp: JSON.parse('{"__proto__":["https://a.example"]}') as object })).toContain('csp.__proto__ is not a CSP list');
    expect(refused({ csp: { connectDomains: 'https://api.example.com' } })).toContain('csp.connectDomains must be a list of origins');
    const injected = refused({ csp: { resourceDomains: ['https://cdn.example.com', "https://cdn.example.com; script-src 'unsafe-eval'", "'unsafe-inline'", 'a b', '', 42] } });
    for (const i of [1, 2, 3, 4, 5]) expect(injected).toContain(`csp.resourceDomains[${i}]`);
    expect(injected).not.toContain('csp.resourceDomains[0]');
    expect(refused({ csp: { frameDomains: [() => 'https://x.example'] } })).toContain('csp.frameDomains[0] a function is not an origin');
    expect(refused({ permissions: { camera: true, clipboardRead: {} } })).toMatch(
      /permissions\.camera asks for the permission with \{\} \(got true\)[\s\S]*permissions\.clipboardRead is not a permission/,
    );
    expect(refused({ domain: 42, prefersBorder: 'yes' })).toMatch(/domain 42 must be[\s\S]*prefersBorder must be true or false \(got "yes"\)/);
  });
});

describe('an extension whose handler throws a third party error with a number code', () => {
  /** What a gRPC client rejects with: a status number as `code`, and a message naming an internal host. */
  const grpcError = () => Object.assign(new Error('14 UNAVAILABLE: connect ECONNREFUSED 10.0.0.5:50051 (/srv/app/secrets.json)'), { code: 14 });
  const logged: string[] = [];
  const backend = defineExtension({
    id: 'com.example/backend',
    requests: {
      'example/lookup': {
        handle: () => {
          throw grpcError();
        },
      },
      'example/refused': {
        handle: () => {
          throw new ProtocolError(-32602, 'name is required');
        },
      },
      'example/unavailable': {
        handle: () => {
          // A JSON-RPC code marks a message meant for the client (as @toolwright/redis's store errors are).
          throw Object.assign(new Error('the lookup store is unavailable: try again shortly'), { code: -32603 });
        },
      },
    },
    listen: {
      keys: ['lookupIds'],
      open: () => Promise.reject(grpcError()),
    },
  });
  let app: App;
  let handler: FetchHandler;
  beforeAll(async () => {
    app = await createApp({
      name: 'backend',
      version: '1.0.0',
      tools: [Plain],
      extensions: [backend],
      logger: { debug() {}, info() {}, warn() {}, error: (message: string) => void logged.push(message) },
    });
    handler = createFetchHandler(app, { logError: () => undefined });
  });
  afterAll(() => handler.close());

  it.each([
    ['2025-11-25', 'memory'],
    ['2026-07-28', 'memory'],
    ['2026-07-28', 'http'],
  ] as const)('answers -32603 without its message, and passes a JSON-RPC error on (%s over %s)', async (protocol, transport) => {
    const client = await createTestClient(app, { protocol, transport } as never);
    try {
      const failed = await errorOf(request(client, 'example/lookup', {}));
      expect(failed).toEqual({ code: -32603, message: 'Internal error' });
      expect(await errorOf(request(client, 'example/refused', {}))).toEqual({ code: -32602, message: 'name is required' });
      expect(await errorOf(request(client, 'example/unavailable', {}))).toEqual({ code: -32603, message: 'the lookup store is unavailable: try again shortly' });
      expect(logged.some((line) => line.includes("'example/lookup' threw"))).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('answers -32603 without its message when an aroundToolCall throws it, or a task store cannot store the task, and keeps serving', async () => {
    /** A store whose connection drops: its error names the host it could not reach. */
    class FlakyStore extends MemoryTaskStore {
      down = true;
      override create(task: Parameters<MemoryTaskStore['create']>[0]): Promise<void> {
        if (this.down) return Promise.reject(Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:6379'), { code: 'ECONNREFUSED' }));
        return super.create(task);
      }
    }
    const store = new FlakyStore();
    const wrapping = defineExtension({
      id: 'com.example/wrap',
      aroundToolCall: async (call, _ctx, next) => {
        if (call.arguments?.fail === true) throw grpcError();
        return next();
      },
    });
    const served = await createApp({ name: 'jobs', version: '1.0.0', tools: [Jobs, Plain], extensions: [wrapping, tasks({ store })], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    const fetch = createFetchHandler(served, { logError: () => undefined });
    const call = (name: string, args: Record<string, unknown>) =>
      modernRequest(fetch, 'tools/call', { name, arguments: args }, { capabilities: declaring }).then(
        (result) => result,
        (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message }),
      );
    try {
      expect(await call('echo', { text: 'x', fail: true })).toEqual({ code: -32603, message: '-32603 Internal error' });
      expect(await call('confirm', {})).toEqual({ code: -32603, message: '-32603 Internal error' });
      store.down = false;
      const handle = await call('confirm', {});
      expect(handle).toMatchObject({ resultType: 'task', status: 'working' });
      await modernRequest(fetch, 'tasks/cancel', { taskId: (handle as { taskId: string }).taskId }, { capabilities: declaring });
      expect(await call('echo', { text: 'still here' })).toMatchObject({ content: [{ type: 'text', text: 'still here' }] });
    } finally {
      await fetch.close();
    }
  });

  it('refuses a subscriptions/listen whose extension part throws it with -32603, without its message', async () => {
    const refused = await modernRequest(handler, 'subscriptions/listen', { notifications: { lookupIds: ['a'] } }).then(
      () => undefined,
      (e: { code?: unknown; message: string }) => ({ code: e.code, message: e.message }),
    );
    expect(refused).toEqual({ code: -32603, message: '-32603 Internal error' });
    expect(logged.some((line) => line.includes("extension 'com.example/backend': listen.open threw"))).toBe(true);
  });
});
