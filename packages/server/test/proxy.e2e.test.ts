import 'reflect-metadata';
import { ConfigError, Ctx, Param, Prompt, RequireScopes, Resource, Tool, type MemberCall, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { proxyServer, type ProxiedServer } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * Issue 28, proxy: a Toolwright app served over real HTTP on 127.0.0.1 is the upstream; a
 * parent app mounts `proxyServer({ url })` under a namespace and the SDK v2 client drives the
 * parent in both eras (in memory and over HTTP). The upstream speaks 2025-11-25 or 2026-07-28
 * (pinned or negotiated). Checked: descriptors kept, calls, progress, cancellation, log lines,
 * elicitation and sampling relayed to the right client, resources, templates, prompts,
 * completions, list changes, one upstream session per downstream session, credentials
 * (configured and per caller, never the downstream token), the parent's middleware and
 * scopes, an upstream that drops and comes back.
 */
const seen: { authorization?: string; calls: number; greetRuns: number } = { calls: 0, greetRuns: 0 };

class Upstream {
  @Tool({
    description: 'Echo a text.',
    title: 'Echo',
    annotations: { readOnlyHint: true },
    icons: [{ src: 'https://example.com/echo.png', mimeType: 'image/png' }],
    _meta: { 'example.com/owner': 'upstream' },
  })
  echo(@Param('text') text: string, @Ctx() ctx: ToolContext) {
    seen.calls++;
    seen.authorization = typeof ctx.headers?.authorization === 'string' ? ctx.headers.authorization : undefined;
    return { echoed: text };
  }

  @Tool({ description: 'Reports progress and logs, then waits for its cancellation.' })
  async work(@Param('steps') steps: number, @Ctx() ctx: ToolContext) {
    ctx.log.info('starting work');
    for (let i = 1; i <= steps; i++) await ctx.progress(i, steps, `step ${i}`);
    await new Promise<void>((_resolve, reject) => {
      ctx.signal.addEventListener('abort', () => reject(new Error('cancelled upstream')), { once: true });
    });
    return 'done';
  }

  @Tool({ description: 'Reports three steps and answers at once.' })
  async quick(@Ctx() ctx: ToolContext) {
    for (let i = 1; i <= 3; i++) await ctx.progress(i, 3);
    ctx.log.info('quick is done');
    return 'quick';
  }

  @Tool({ description: 'Asks the user for a name, then the model for a greeting.' })
  async greet(@Ctx() ctx: ToolContext) {
    seen.greetRuns++;
    const answer = await ctx.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] });
    if (answer.action !== 'accept') return `no name (${answer.action})`;
    const sampled = await ctx.sample(`Greet ${String(answer.content.name)}`);
    return `${String(answer.content.name)}: ${sampled.content.type === 'text' ? sampled.content.text : '?'}`;
  }

  @Tool({ description: 'Counts calls in the upstream session.' })
  async count(@Ctx() ctx: ToolContext) {
    const n = ((await ctx.session?.get<number>('n')) ?? 0) + 1;
    await ctx.session?.set('n', n);
    return { n, session: ctx.sessionId ?? 'none' };
  }

  @Resource('up://readme', { mimeType: 'text/plain', description: 'The readme.' })
  readme() {
    return 'read me';
  }

  @Resource('up://items/{id}', { mimeType: 'text/plain' })
  item(@Param('id', { complete: (v: string) => ['apple', 'apricot', 'banana'].filter((x) => x.startsWith(v)) }) id: string) {
    return `item ${id}`;
  }

  @Prompt({ description: 'Say hello.' })
  hello(@Param('who') who: string) {
    return `Hello, ${who}!`;
  }
}

class Extra {
  @Tool({ description: 'Added later.' })
  later() {
    return 'later';
  }
}

/** Tools an upstream lists only to callers with a scope. */
class Scoped {
  @Tool({ description: 'Says which upstream token the call carried.' })
  whoami(@Ctx() ctx: ToolContext) {
    return ctx.authInfo?.clientId ?? 'none';
  }

  @Tool({ description: 'Only for scope a.' })
  @RequireScopes('a')
  onlyA() {
    return 'a';
  }

  @Tool({ description: 'Only for scope b.' })
  @RequireScopes('b')
  onlyB() {
    return 'b';
  }
}

async function upstreamApp(): Promise<App> {
  return createApp({ name: 'upstream', version: '1.0.0', tools: [Upstream] });
}

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };

describe.each([
  ['2025-11-25', '2025-11-25'],
  ['2026-07-28', '2026-07-28'],
  ['auto', '2026-07-28'],
] as const)('proxy of a Toolwright app over HTTP, upstream protocol %s', (protocol, negotiated) => {
  let upstream: App;
  let listener: HttpListener;
  let proxy: ProxiedServer;
  let front: App;
  const trail: string[] = [];

  beforeAll(async () => {
    upstream = await upstreamApp();
    listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
    proxy = await proxyServer({ url: listener.url, protocol, bearer: 'upstream-secret', name: 'up' });
    front = await createApp({
      name: 'front',
      version: '1.0.0',
      tools: [],
      middleware: [
        async (call: MemberCall, next: () => Promise<unknown>) => {
          trail.push(`front>${call.name}`);
          return next();
        },
      ],
      mount: [{ app: proxy, namespace: 'up' }],
    });
  });

  afterAll(async () => {
    await proxy.stop();
    await listener.close();
  });

  it('speaks the upstream protocol asked for', () => {
    expect(proxy.status).toMatchObject({ connected: true, protocolVersion: negotiated });
  });

  describe.each(['legacy', 'modern'] as const)('downstream %s era', (era) => {
    it('lists the upstream members under the namespace with their descriptors kept', async () => {
      const client = await createTestClient(front, { era });
      const { tools } = await client.listTools();
      const echo = tools.find((t) => t.name === 'up_echo');
      expect(echo).toMatchObject({
        title: 'Echo',
        description: 'Echo a text.',
        annotations: { readOnlyHint: true },
        icons: [{ src: 'https://example.com/echo.png', mimeType: 'image/png' }],
        _meta: { 'example.com/owner': 'upstream' },
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      });
      expect(tools.map((t) => t.name).sort()).toEqual(['up_count', 'up_echo', 'up_greet', 'up_quick', 'up_work']);
      expect((await client.listResources()).resources).toEqual([expect.objectContaining({ uri: 'up://readme', mimeType: 'text/plain', description: 'The readme.' })]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'up://items/{id}' })]);
      expect((await client.listPrompts()).prompts).toEqual([expect.objectContaining({ name: 'up_hello', arguments: [expect.objectContaining({ name: 'who', required: true })] })]);
      await client.close();
    });

    it('forwards calls, reads, prompts and completions through the parent middleware, with the configured bearer only', async () => {
      const client = await createTestClient(front, { era, auth: { token: 'downstream-token', clientId: 'alice' } });
      trail.length = 0;
      const result = await client.callTool({ name: 'up_echo', arguments: { text: 'hi' } });
      expect(result.isError).toBeFalsy();
      expect(jsonOf(result)).toEqual({ echoed: 'hi' });
      expect(trail).toEqual(['front>up_echo']);
      expect(seen.authorization).toBe('Bearer upstream-secret');
      expect((await client.readResource({ uri: 'up://readme' })).contents[0]).toMatchObject({ uri: 'up://readme', text: 'read me' });
      expect((await client.readResource({ uri: 'up://items/7' })).contents[0]).toMatchObject({ text: 'item 7' });
      const prompt = await client.getPrompt({ name: 'up_hello', arguments: { who: 'Ada' } });
      expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: 'Hello, Ada!' } });
      const completion = await client.complete({ ref: { type: 'ref/resource', uri: 'up://items/{id}' }, argument: { name: 'id', value: 'ap' } });
      expect(completion.completion.values).toEqual(['apple', 'apricot']);
      await client.close();
    });

    it('reports a bad argument as the upstream does: an isError result', async () => {
      const client = await createTestClient(front, { era });
      const result = await client.callTool({ name: 'up_echo', arguments: { text: 42 } });
      expect(result.isError).toBe(true);
      expect(JSON.stringify(result.content)).toContain('text');
      await client.close();
    });

    it('relays the upstream elicitation and sampling to the calling client', async () => {
      const client = await createTestClient(front, {
        era,
        elicitation: { action: 'accept', content: { name: 'Ada' } },
        sampling: 'Welcome!',
      });
      const runs = seen.greetRuns;
      const result = await client.callTool({ name: 'up_greet', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'Ada: Welcome!' }]);
      // A 2025-era upstream's tool runs once: the questions go to a 2026-07-28 client round by round, its answers to the waiting call.
      if (negotiated === '2025-11-25') expect(seen.greetRuns - runs).toBe(1);
      const declining = await createTestClient(front, { era, elicitation: { action: 'decline' }, sampling: 'x' });
      expect((await declining.callTool({ name: 'up_greet', arguments: {} })).content).toEqual([{ type: 'text', text: 'no name (decline)' }]);
      await Promise.all([client.close(), declining.close()]);
    });
  });

  it('relays progress and log lines, and passes a cancellation upstream (legacy downstream)', async () => {
    const client = await createTestClient(front, { era: 'legacy' });
    await client.setLoggingLevel('info');
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    const progress: unknown[] = [];
    const abort = new AbortController();
    const call = client.callTool({ name: 'up_work', arguments: { steps: 2 } }, { signal: abort.signal, onprogress: (p: unknown) => progress.push(p) } as never);
    await waitFor(() => progress.length === 2, 'two progress notifications');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'step 1' },
      { progress: 2, total: 2, message: 'step 2' },
    ]);
    expect(logs).toEqual([expect.objectContaining({ level: 'info', data: 'starting work' })]);
    const before = upstream.inFlight;
    expect(before).toBe(1);
    abort.abort();
    await expect(call).rejects.toThrow();
    await waitFor(() => upstream.inFlight === 0, 'the upstream call to end after the cancellation');
    await client.close();
  });

  it.each(['legacy', 'modern'] as const)('%s downstream: relays every progress notification and log line sent just before the result', async (era) => {
    const client = await createTestClient(front, { era });
    // A 2025-era client sets its log level on the session; a 2026-07-28 client asks for log lines per request.
    if (era === 'legacy') await client.setLoggingLevel('info');
    const _meta = era === 'modern' ? { 'io.modelcontextprotocol/logLevel': 'info' } : undefined;
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    const progress: unknown[] = [];
    const result = await client.callTool({ name: 'up_quick', arguments: {}, ...(_meta && { _meta }) }, { onprogress: (p: unknown) => progress.push(p) } as never);
    expect(result.content).toEqual([{ type: 'text', text: 'quick' }]);
    expect(progress).toEqual([1, 2, 3].map((n) => ({ progress: n, total: 3 })));
    await waitFor(() => logs.length > 0, 'the log line');
    expect(logs).toEqual([expect.objectContaining({ level: 'info', data: 'quick is done' })]);
    await client.close();
  });

  it('gives each downstream session its own upstream session, also with two clients at once', async () => {
    const a = await createTestClient(front, { era: 'legacy' });
    const b = await createTestClient(front, { era: 'legacy' });
    const countOf = async (c: typeof a) => jsonOf(await c.callTool({ name: 'up_count', arguments: {} })) as { n: number; session: string };
    const [a1, b1] = await Promise.all([countOf(a), countOf(b)]);
    const [a2, b2] = await Promise.all([countOf(a), countOf(b)]);
    if (negotiated === '2025-11-25') {
      expect([a1.n, a2.n, b1.n, b2.n]).toEqual([1, 2, 1, 2]);
      expect(a1.session).toBe(a2.session);
      expect(a1.session).not.toBe(b1.session);
    }
    expect(proxy.status.sessions).toBeGreaterThanOrEqual(2);
    const open = proxy.status.sessions;
    await a.close();
    await waitFor(() => proxy.status.sessions === open - 1, 'the upstream session to close with its downstream session');
    await b.close();
  });

  it.each(['legacy', 'modern'] as const)('%s downstream: passes the upstream updates of static and template resources to the clients that subscribed, and to no other', async (era) => {
    const client = await createTestClient(front, { era });
    const bystander = await createTestClient(front, { era });
    const updated: string[] = [];
    const overheard: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    bystander.setNotificationHandler('notifications/resources/updated', (n) => void overheard.push(n.params.uri));
    // A 2025-era client subscribes per URI; a 2026-07-28 client names them on a subscriptions/listen stream.
    const uris = ['up://readme', 'up://items/42'];
    const subscription = era === 'legacy' ? await Promise.all(uris.map((uri) => client.subscribeResource({ uri }))) : await client.listen({ resourceSubscriptions: uris });
    if (era === 'legacy') await bystander.subscribeResource({ uri: 'up://items/7' });
    else await bystander.listen({ resourceSubscriptions: ['up://items/7'] });
    await waitFor(() => {
      upstream.notifyResourceUpdated('up://readme');
      upstream.notifyResourceUpdated('up://items/42');
      return updated.includes('up://readme') && updated.includes('up://items/42');
    }, 'resources/updated from the parent for both URIs');
    expect([...new Set(updated)].sort()).toEqual(['up://items/42', 'up://readme']);
    expect(overheard).toEqual([]);
    if (!Array.isArray(subscription)) await subscription.close();
    await Promise.all([client.close(), bystander.close()]);
  });

  it('follows the upstream list changes', async () => {
    const client = await createTestClient(front, { era: 'legacy' });
    const changed: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed.push('tools'));
    await upstream.add(Extra);
    await waitFor(() => changed.length > 0, 'tools/list_changed from the parent');
    expect((await client.callTool({ name: 'up_later', arguments: {} })).content).toEqual([{ type: 'text', text: 'later' }]);
    upstream.tools.remove('later');
    await waitFor(async () => !(await client.listTools()).tools.some((t) => t.name === 'up_later'), 'up_later to go');
    await client.close();
  });
});

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty'];

class ProtoNamed {}
for (const name of PROTO_NAMES) {
  const method = `m${PROTO_NAMES.indexOf(name)}`;
  Object.defineProperty(ProtoNamed.prototype, method, { value: () => `tool ${name}`, writable: true, configurable: true });
  Tool({ name, description: `A tool named ${name}.` })(ProtoNamed.prototype, method, Object.getOwnPropertyDescriptor(ProtoNamed.prototype, method)!);
}

describe('proxy of members whose names are Object.prototype members', () => {
  it.each(['legacy', 'modern'] as const)('%s era: lists and calls each by its own name, and refuses a name the upstream does not serve', async (era) => {
    const upstream = await createApp({ name: 'protos', version: '1.0.0', tools: [ProtoNamed] });
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
    const proxy = await proxyServer({ url: listener.url });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'p' }] });
    const client = await createTestClient(front, { era });
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(PROTO_NAMES.map((n) => `p_${n}`).sort());
    for (const name of PROTO_NAMES) expect((await client.callTool({ name: `p_${name}`, arguments: {} })).content).toEqual([{ type: 'text', text: `tool ${name}` }]);
    await expect(client.callTool({ name: '__proto__', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
    await proxy.stop();
    await listener.close();
  });
});

describe('proxy with mount transforms', () => {
  it('renames a proxied tool, hides an argument with a constant and narrows another, as for a mounted app', async () => {
    const upstream = await upstreamApp();
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
    const proxy = await proxyServer({ url: listener.url });
    const front = await createApp({
      name: 'front',
      version: '1.0.0',
      tools: [],
      mount: [
        {
          app: proxy,
          namespace: 'up',
          transforms: { echo: { name: 'say', description: 'Say the fixed text.', arguments: { text: { value: 'fixed' } } }, work: { arguments: { steps: { narrow: { maximum: 0 } } } } },
        },
      ],
    });
    for (const era of ['legacy', 'modern'] as const) {
      const client = await createTestClient(front, { era });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'up_say')).toMatchObject({ description: 'Say the fixed text.', inputSchema: { properties: {} } });
      expect(tools.some((t) => t.name === 'up_echo')).toBe(false);
      expect(jsonOf(await client.callTool({ name: 'up_say', arguments: {} }))).toEqual({ echoed: 'fixed' });
      const refused = await client.callTool({ name: 'up_work', arguments: { steps: 3 } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('steps');
      await client.close();
    }
    await proxy.stop();
    await listener.close();
  });
});

describe('proxy credentials, reconnects and options', () => {
  it('asks the credentials hook per caller and never forwards the downstream bearer over HTTP', async () => {
    const upstream = await upstreamApp();
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
    const asked: (string | undefined)[] = [];
    const proxy = await proxyServer({
      url: listener.url,
      credentials: (caller) => {
        asked.push(caller?.clientId);
        return { authorization: `Bearer exchanged-for-${caller?.clientId ?? 'proxy'}` };
      },
    });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
    const client = await createTestClient(front, {
      transport: 'http',
      bearer: 'downstream-token',
      listen: { auth: { verifyToken: async (token: string) => ({ token, clientId: 'alice', scopes: [] }), authorizationServers: ['https://auth.example.com'] } },
    });
    await client.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    expect(seen.authorization).toBe('Bearer exchanged-for-alice');
    // Without credentials of its own, the proxy sends none: the downstream bearer is not passed on.
    const bare = await proxyServer({ url: listener.url });
    const plain = await createApp({ name: 'plain', version: '1.0.0', tools: [], mount: [{ app: bare, namespace: 'up' }] });
    const other = await createTestClient(plain, {
      transport: 'http',
      bearer: 'downstream-token',
      listen: { auth: { verifyToken: async (token: string) => ({ token, clientId: 'alice', scopes: [] }), authorizationServers: ['https://auth.example.com'] } },
    });
    await other.callTool({ name: 'up_echo', arguments: { text: 'x' } });
    expect(seen.authorization).toBeUndefined();
    await other.close();
    await bare.stop();
    expect(asked).toContain(undefined);
    expect(asked).toContain('alice');
    await client.close();
    await proxy.stop();
    await listener.close();
  });

  it("serves every caller the lists of its own session, never those a caller's credentials show upstream", async () => {
    const upstream = await createApp({ name: 'scoped', version: '1.0.0', tools: [Scoped] });
    const scopesOf: Record<string, string[]> = { 'proxy-token': [], 'token-for-alice': ['a'], 'token-for-bob': ['b'] };
    const listener = await upstream.listen({
      transport: 'http',
      port: 0,
      host: '127.0.0.1',
      ...quiet,
      auth: {
        verifyToken: async (token: string) => (Object.hasOwn(scopesOf, token) ? { token, clientId: token, scopes: scopesOf[token]! } : undefined),
        authorizationServers: ['https://auth.example.com'],
      },
    });
    const proxy = await proxyServer({ url: listener.url, credentials: (caller) => ({ authorization: `Bearer ${caller ? `token-for-${caller.clientId}` : 'proxy-token'}` }) });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'sc' }] });
    for (const era of ['legacy', 'modern'] as const) {
      const alice = await createTestClient(front, { era, auth: { clientId: 'alice' } });
      const bob = await createTestClient(front, { era, auth: { clientId: 'bob' } });
      // Alice's calls go upstream with her credentials, whose list would show onlyA.
      expect((await alice.callTool({ name: 'sc_whoami', arguments: {} })).content).toEqual([{ type: 'text', text: 'token-for-alice' }]);
      for (const client of [alice, bob]) expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['sc_whoami']);
      await expect(bob.callTool({ name: 'sc_onlyA', arguments: {} })).rejects.toThrow(/Unknown tool/);
      await Promise.all([alice.close(), bob.close()]);
    }
    await proxy.stop();
    await listener.close();
  });

  it('listens again when a 2026-07-28 upstream drops its subscriptions/listen stream, so updates and list changes keep coming', async () => {
    const upstream = await upstreamApp();
    let listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet, drainTimeoutMs: 1 });
    const port = listener.port;
    const proxy = await proxyServer({ url: listener.url, protocol: '2026-07-28', logger: silent });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
    const client = await createTestClient(front);
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'up://readme' });
    await listener.close();
    listener = await upstream.listen({ transport: 'http', port, host: '127.0.0.1', ...quiet });
    await waitFor(() => {
      upstream.notifyResourceUpdated('up://readme');
      return updated.length > 0;
    }, 'an update after the upstream came back');
    await upstream.add(Extra);
    await waitFor(async () => (await client.listTools()).tools.some((t) => t.name === 'up_later'), 'the list change after the upstream came back');
    await client.close();
    await proxy.stop();
    await listener.close();
  });

  it('cancels the waiting upstream call of a 2026-07-28 client that never answers its question (after requestTimeoutMs)', async () => {
    const upstream = await upstreamApp();
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
    const proxy = await proxyServer({ url: listener.url, protocol: '2025-11-25', requestTimeoutMs: 400, logger: silent });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
    const client = await createTestClient(front, { era: 'modern', elicitation: () => new Promise<never>(() => undefined) });
    void client.callTool({ name: 'up_greet', arguments: {} }).catch(() => undefined);
    await waitFor(() => upstream.inFlight === 1, 'the upstream call to wait for the answer');
    await waitFor(() => upstream.inFlight === 0, 'the abandoned upstream call to end');
    await proxy.stop();
    await listener.close();
  });

  it('gives a clear error when the upstream drops mid-call, and reconnects when it is back', async () => {
    const upstream = await upstreamApp();
    let listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet, drainTimeoutMs: 1 });
    const port = listener.port;
    const proxy = await proxyServer({ url: listener.url, protocol: '2025-11-25', reconnect: { initialDelayMs: 20, maxDelayMs: 100 }, logger: silent });
    const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
    const client = await createTestClient(front);
    const call = client.callTool({ name: 'up_work', arguments: { steps: 0 } });
    await waitFor(() => upstream.inFlight === 1, 'the upstream call to start');
    await listener.close();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/upstream 'upstream' .*(closed the connection|shutting down)/);
    listener = await upstream.listen({ transport: 'http', port, host: '127.0.0.1', ...quiet });
    await waitFor(async () => !(await client.callTool({ name: 'up_echo', arguments: { text: 'back' } })).isError, 'a call to succeed after the upstream is back');
    await client.close();
    await proxy.stop();
    await listener.close();
  });

  it.each([
    [{}, /exactly one of `url`/],
    [{ url: 'ftp://x' }, /http: or https:/],
    [{ url: 'not a url' }, /not an absolute URL/],
    [{ command: '' }, /non-empty string/],
    [{ url: 'http://127.0.0.1:1/mcp', maxSessions: 0 }, /maxSessions is 0/],
    [{ url: 'http://127.0.0.1:1/mcp', listTimeoutMs: 1.5 }, /listTimeoutMs is 1.5. Give a positive integer/],
    [{ url: 'http://127.0.0.1:1/mcp', maxLogLinesPerSecond: 0 }, /maxLogLinesPerSecond is 0. Give a positive integer/],
    [{ url: 'http://127.0.0.1:1/mcp', maxLogLinesPerSecond: Infinity }, /maxLogLinesPerSecond is Infinity. Give a positive integer/],
    [{ url: 'http://127.0.0.1:1/mcp', maxLogLinesPerSecond: '100' }, /maxLogLinesPerSecond is "100". Give a positive integer/],
  ])('refuses bad options %#', async (options, message) => {
    const refused = proxyServer(options as never);
    await expect(refused).rejects.toThrow(message);
    await expect(refused).rejects.toThrow(ConfigError);
  });

  it('says which upstream it cannot reach', async () => {
    await expect(proxyServer({ url: 'http://127.0.0.1:9/mcp', name: 'nowhere' })).rejects.toThrow(/could not connect to upstream 'nowhere'/);
  });
});

/** The JSON a Toolwright tool without an output schema returns as its one text block. */
function jsonOf(result: { content?: unknown }): unknown {
  const [block] = result.content as { type: string; text: string }[];
  return JSON.parse(block!.text);
}

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
