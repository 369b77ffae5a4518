import 'reflect-metadata';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '@toolwright/server';
import { proxyServer, type ProxiedServer, type ProxyOptions } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { spawnListening } from './fixtures/spawnListening';
import { waitFor } from './fixtures/waitFor';

/**
 * Issue 28, proxy, with upstreams in processes: the official reference server
 * `@modelcontextprotocol/server-everything` (npm, installed on first use into
 * test/fixtures/everything, outside the workspace) over stdio and over Streamable HTTP, and a
 * Toolwright app over stdio (fixtures/stdio-server.js, on the build). The SDK v2 client drives
 * the parent app in both eras: tools (descriptors, progress, sampling, elicitation, roots),
 * resources, templates, prompts, completions; killing the upstream mid-call gives a clear
 * error, and the next call gets a new upstream process.
 */
const EVERYTHING_DIR = join(__dirname, 'fixtures', 'everything');
const EVERYTHING = join(EVERYTHING_DIR, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const STDIO_FIXTURE = join(__dirname, 'fixtures', 'stdio-server.js');
const MARKED_FIXTURE = join(__dirname, 'fixtures', 'proxy-stdio-upstream.js');
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

beforeAll(() => {
  if (existsSync(EVERYTHING)) return;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: EVERYTHING_DIR, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${EVERYTHING_DIR} failed with code ${result.status}`);
}, 180_000);

/** The processes this one started whose command line mentions `what` (the proxy's upstream children). */
function childrenRunning(what: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-f', what], { encoding: 'utf8' })
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}

async function mounted(options: ProxyOptions, namespace: string): Promise<{ proxy: ProxiedServer; front: App }> {
  const proxy = await proxyServer({ logger: silent, ...options });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace }], logger: silent });
  return { proxy, front };
}

const textOf = (result: { content?: unknown }) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');

describe('server-everything over stdio, behind the proxy', () => {
  let proxy: ProxiedServer;
  let front: App;

  beforeAll(async () => {
    ({ proxy, front } = await mounted({ command: process.execPath, args: [EVERYTHING, 'stdio'], stderr: 'ignore', protocol: '2025-11-25', name: 'everything' }, 'ev'));
  }, 30_000);
  afterAll(() => proxy.stop());

  describe.each(['legacy', 'modern'] as const)('downstream %s era', (era) => {
    it('serves its tools, resources, templates and prompts with their descriptors', async () => {
      const client = await createTestClient(front, { era });
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'ev_echo')).toMatchObject({ inputSchema: { properties: { message: { type: 'string' } } }, annotations: expect.any(Object) });
      expect(tools.find((t) => t.name === 'ev_get-structured-content')).toMatchObject({ outputSchema: expect.objectContaining({ type: 'object' }) });
      expect(textOf(await client.callTool({ name: 'ev_echo', arguments: { message: 'hi' } }))).toBe('Echo: hi');
      const structured = await client.callTool({ name: 'ev_get-structured-content', arguments: { location: 'Chicago' } });
      expect(structured.structuredContent).toMatchObject({ temperature: expect.any(Number) });
      const { resources } = await client.listResources();
      expect(resources.length).toBeGreaterThan(0);
      expect((await client.readResource({ uri: resources[0]!.uri })).contents[0]).toMatchObject({ uri: resources[0]!.uri });
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toContain('demo://resource/dynamic/text/{resourceId}');
      expect((await client.readResource({ uri: 'demo://resource/dynamic/text/3' })).contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/3' });
      const prompt = await client.getPrompt({ name: 'ev_args-prompt', arguments: { city: 'Paris' } });
      expect(JSON.stringify(prompt.messages)).toContain('Paris');
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'ev_completable-prompt' }, argument: { name: 'department', value: 'E' } });
      expect(completion.completion.values).toContain('Engineering');
      await client.close();
    });

    it('relays progress, sampling, elicitation and roots to the calling client', async () => {
      const client = await createTestClient(front, {
        era,
        sampling: 'a sampled answer',
        elicitation: { action: 'accept', content: { name: 'Ada' } },
        roots: [{ uri: 'file:///work', name: 'work' }],
      });
      const progress: unknown[] = [];
      const long = await client.callTool({ name: 'ev_trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } }, {
        onprogress: (p: unknown) => progress.push(p),
      } as never);
      expect(long.isError).toBeFalsy();
      if (era === 'legacy') expect(progress).toEqual([expect.objectContaining({ progress: 1, total: 2 }), expect.objectContaining({ progress: 2, total: 2 })]);
      expect(textOf(await client.callTool({ name: 'ev_trigger-sampling-request', arguments: { prompt: 'hello' } }))).toContain('a sampled answer');
      expect(textOf(await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} }))).toContain('- Name: Ada');
      expect(textOf(await client.callTool({ name: 'ev_get-roots-list', arguments: {} }))).toContain('file:///work');
      await client.close();
    });
  });

  it.each(['legacy', 'modern'] as const)('downstream %s era: relays URL-mode elicitation, explains a -32042 refusal, and leaves out a tool that runs only as a task', async (era) => {
    const asked: unknown[] = [];
    const client = await createTestClient(front, {
      era,
      elicitation: (request) => {
        asked.push(request);
        return { action: 'accept' };
      },
    });
    const tools = (await client.listTools()).tools.map((t) => t.name);
    expect(tools).toContain('ev_trigger-url-elicitation');
    // taskSupport 'required': every plain call would be refused, and the proxy relays no tasks.
    expect(tools).not.toContain('ev_simulate-research-query');
    const result = await client.callTool({ name: 'ev_trigger-url-elicitation', arguments: { url: 'https://example.com/connect', elicitationId: 'e-1' } });
    expect(result.isError).toBeFalsy();
    // The upstream's elicitationId reaches a 2025-era client; a 2026-07-28 input request carries none.
    expect(asked).toEqual([expect.objectContaining({ mode: 'url', url: 'https://example.com/connect', ...(era === 'legacy' && { elicitationId: 'e-1' }) })]);
    const refused = await client.callTool({ name: 'ev_trigger-url-elicitation', arguments: { url: 'https://example.com/connect', errorPath: true } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/\(JSON-RPC -32042\)\. The user must open https:\/\/modelcontextprotocol\.io first, then call again\.$/);
    await client.close();
  });

  it('gives a clear error when the upstream process dies mid-call, and a new process serves the next call', async () => {
    const client = await createTestClient(front);
    const before = childrenRunning('server-everything');
    const call = client.callTool({ name: 'ev_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } });
    const started = await waitFor(
      () =>
        childrenRunning('server-everything')
          .filter((pid) => !before.includes(pid))
          .slice(0, 1)[0],
      'the upstream session process',
    );
    process.kill(started, 'SIGKILL');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("upstream 'everything' closed the connection before answering tools/call 'trigger-long-running-operation'. The proxy reconnects on the next request: try again.");
    expect(textOf(await client.callTool({ name: 'ev_echo', arguments: { message: 'again' } }))).toBe('Echo: again');
    await client.close();
  });
});

describe('concurrent sessionless callers behind the proxy (a 2025-era Toolwright app over stdio)', () => {
  // Over stdio nothing ties a 2025-era upstream's log line or question to its request: a
  // sessionless caller's call has an upstream session to itself, so each goes to its own call.
  let proxy: ProxiedServer;
  let front: App;
  const cancelFolder = mkdtempSync(join(tmpdir(), 'proxy-'));
  const cancelLog = join(cancelFolder, 'cancelled.log');

  beforeAll(async () => {
    ({ proxy, front } = await mounted({ command: process.execPath, args: [MARKED_FIXTURE], env: { CANCEL_LOG: cancelLog }, stderr: 'ignore', protocol: '2025-11-25', name: 'marked' }, 'mk'));
  }, 30_000);
  afterAll(async () => {
    await proxy.stop();
    rmSync(cancelFolder, { recursive: true, force: true });
  });

  const alice = { clientId: 'app', claims: { sub: 'alice' } };
  const bob = { clientId: 'app', claims: { sub: 'bob' } };
  const callerOf = (who: 'A' | 'B', auth: typeof alice | undefined) =>
    createTestClient(front, {
      transport: 'http',
      era: 'modern',
      ...(auth && { auth: { ...auth, token: `${who}-token` } }),
      elicitation: (request) => ({ action: 'accept', content: { answer: `${who}'s answer to ${request.message}` } }),
    });

  it.each([
    ['the same subject', alice, alice],
    ['different subjects', alice, bob],
    ['no identity', undefined, undefined],
  ] as const)('callers with %s: log lines, progress and questions reach only the call that caused them', async (_, authA, authB) => {
    const clients = { A: await callerOf('A', authA), B: await callerOf('B', authB) };
    const heard = { A: [] as string[], B: [] as string[] };
    const calls = (['A', 'B'] as const).map((who) => {
      clients[who].setNotificationHandler('notifications/message', (n) => void heard[who].push(String(n.params.data)));
      const params = { name: 'mk_marked', arguments: { tag: who }, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } };
      return clients[who].callTool(params, { onprogress: (p: { message?: string }) => heard[who].push(String(p.message)) } as never);
    });
    const [a, b] = await Promise.all(calls);
    expect(textOf(a!)).toBe("A got A's answer to Question for A");
    expect(textOf(b!)).toBe("B got B's answer to Question for B");
    for (const who of ['A', 'B'] as const) {
      expect(heard[who]).toEqual(expect.arrayContaining([`log for ${who}`, `progress for ${who}`]));
      const other = who === 'A' ? 'B' : 'A';
      expect(heard[who].filter((line) => line.includes(`for ${other}`))).toEqual([]);
    }
    await Promise.all([clients.A.close(), clients.B.close()]);
  });

  it('stateless 2025-11-25 HTTP callers of the same subject: log lines and progress reach only the call that caused them', async () => {
    const clients = await Promise.all(
      (['A', 'B'] as const).map((who) => createTestClient(front, { transport: 'http', era: 'legacy', auth: { ...alice, token: `${who}-token` }, listen: { stateless: true } })),
    );
    const heard = { A: [] as string[], B: [] as string[] };
    const calls = (['A', 'B'] as const).map((who, i) => {
      clients[i]!.setNotificationHandler('notifications/message', (n) => void heard[who].push(String(n.params.data)));
      return clients[i]!.callTool({ name: 'mk_noted', arguments: { tag: who } }, { onprogress: (p: { message?: string }) => heard[who].push(String(p.message)) } as never);
    });
    expect((await Promise.all(calls)).map((r) => textOf(r))).toEqual(['A done', 'B done']);
    expect(heard.A).toEqual(expect.arrayContaining(['log for A', 'progress for A']));
    expect(heard.B).toEqual(expect.arrayContaining(['log for B', 'progress for B']));
    expect([...heard.A.filter((l) => l.includes('for B')), ...heard.B.filter((l) => l.includes('for A'))]).toEqual([]);
    await Promise.all(clients.map((c) => c.close()));
  });

  // Regression: two questions at once on a 2026-07-28 client's call (server-everything's own roots question beside its
  // tool's) left the first one unanswered, overwritten by the second, and the call hung until the test timed out.
  it.each(['legacy', 'modern'] as const)('downstream %s era: an upstream that asks two questions at once gets both answered', async (era) => {
    const client = await createTestClient(front, { era, elicitation: { action: 'accept', content: { answer: 'yes' } }, roots: [{ uri: 'file:///work', name: 'work' }] });
    const answered = client.callTool({ name: 'mk_twice', arguments: { tag: 'C' } });
    const hung = new Promise<never>((_, reject) => setTimeout(() => reject(new Error('the call is still waiting after 10 s')), 10_000).unref());
    expect(textOf(await Promise.race([answered, hung]))).toBe('C got yes and roots file:///work');
    await client.close();
  });

  it('a cancellation reaches only the upstream call of the caller that cancelled', async () => {
    const clients = { A: await callerOf('A', alice), B: await callerOf('B', alice) };
    const aborts = { A: new AbortController(), B: new AbortController() };
    const calls = (['A', 'B'] as const).map((who) => clients[who].callTool({ name: 'mk_hold', arguments: { tag: who } }, { signal: aborts[who].signal }).catch(() => 'aborted'));
    const logged = () => (existsSync(cancelLog) ? readFileSync(cancelLog, 'utf8') : '');
    await waitFor(() => logged().includes('started A') && logged().includes('started B'), 'both upstream calls to start');
    aborts.A.abort();
    await waitFor(() => logged().includes('cancelled A'), "A's upstream call to end");
    expect(logged()).not.toContain('cancelled B');
    aborts.B.abort();
    await waitFor(() => logged().includes('cancelled B'), "B's upstream call to end");
    expect(await Promise.all(calls)).toEqual(['aborted', 'aborted']);
    await Promise.all([clients.A.close(), clients.B.close()]);
  });
});

describe('server-everything over Streamable HTTP, behind the proxy', () => {
  let child: ChildProcess;
  let proxy: ProxiedServer;
  let front: App;

  beforeAll(async () => {
    // server-everything prints the port it was given, not the one it got, so it cannot take port 0: a free port is picked,
    // and picked again when another test's server took it meanwhile (server-everything then says so and exits).
    const started = await spawnListening((port) => spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { ...process.env, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] }), {
      listening: /listening on port/,
      inUse: /already in use/,
      timeoutMs: 10_000,
      name: 'server-everything',
    });
    child = started.child;
    const { port } = started;
    ({ proxy, front } = await mounted({ url: `http://127.0.0.1:${port}/mcp`, name: 'everything-http', bearer: 'upstream-key' }, 'ev'));
  }, 30_000);
  afterAll(async () => {
    await proxy.stop();
    child.kill();
  });

  it.each(['legacy', 'modern'] as const)('downstream %s era: calls, sampling and a template read go through', async (era) => {
    const client = await createTestClient(front, { era, sampling: 'over http' });
    expect(textOf(await client.callTool({ name: 'ev_get-sum', arguments: { a: 2, b: 5 } }))).toContain('7');
    expect(textOf(await client.callTool({ name: 'ev_trigger-sampling-request', arguments: { prompt: 'hello' } }))).toContain('over http');
    expect((await client.readResource({ uri: 'demo://resource/dynamic/text/1' })).contents[0]).toMatchObject({ uri: 'demo://resource/dynamic/text/1' });
    await client.close();
  });
});

describe('a Toolwright app over stdio behind the proxy (2026-07-28 negotiated)', () => {
  let proxy: ProxiedServer;
  let front: App;

  beforeAll(async () => {
    ({ proxy, front } = await mounted({ command: process.execPath, args: [STDIO_FIXTURE], stderr: 'ignore', name: 'fixture' }, 'tw'));
  }, 30_000);
  afterAll(() => proxy.stop());

  it('negotiates 2026-07-28 with it', () => {
    expect(proxy.status.protocolVersion).toBe('2026-07-28');
  });

  it.each(['legacy', 'modern'] as const)('downstream %s era: progress, sampling, a resource and a prompt', async (era) => {
    const client = await createTestClient(front, { era, sampling: 'from the client' });
    const progress: unknown[] = [];
    // Regression: over stdio the progress sent just before a result was lost (the SDK client hands notifications to their handlers a turn after responses).
    const slow = await client.callTool({ name: 'tw_slow', arguments: { ms: 1 } }, { onprogress: (p: unknown) => progress.push(p) } as never);
    expect(textOf(slow)).toBe('slept 1');
    if (era === 'legacy') expect(progress).toEqual([expect.objectContaining({ progress: 0, total: 1, message: 'started' })]);
    expect(textOf(await client.callTool({ name: 'tw_ask', arguments: {} }))).toBe('the client said: from the client');
    expect((await client.readResource({ uri: 'fixture://readme' })).contents[0]).toMatchObject({ uri: 'fixture://readme' });
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toContain('tw_note');
    await client.close();
  });
});
