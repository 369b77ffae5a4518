import 'reflect-metadata';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { proxyServer, type ProxiedServer, type ProxyStdioOptions } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * The proxy with hostile upstreams: fixtures/hostile-upstream.js, plain JavaScript speaking
 * newline-delimited JSON-RPC over stdio, lists names and shapes the spec does not allow and
 * answers late, twice, with the wrong id, with results of the wrong shape, or not at all. The
 * parent app keeps serving its own tool, fails the proxied ones with clear errors, and never
 * serves its clients a name or a result the spec does not allow.
 */
const HOSTILE = join(__dirname, 'fixtures', 'hostile-upstream.js');

class Own {
  @Tool({ description: 'The parent app own tool.' })
  own() {
    return 'own';
  }
}

interface Hostile {
  proxy: ProxiedServer;
  front: App;
  /** What the proxy logged (warnings and errors). */
  logged: string[];
  /** The messages the upstream processes got, one line each: `<method> <name>`. */
  received(): string[];
}

const started: ProxiedServer[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((p) => p.stop()));
});
/** The folders the hostile upstreams write what they received into (some live through a describe), removed at the end. */
const folders: string[] = [];
afterAll(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/** The parent app `front` with its tool `own`, mounting the hostile upstream (answering tools/list with `list`) under `h`. */
async function hostile(list: string, options: Partial<ProxyStdioOptions> = {}): Promise<Hostile> {
  const logged: string[] = [];
  const log = (line: string) => void logged.push(line);
  const logger = { debug: () => undefined, info: () => undefined, warn: log, error: log };
  const folder = mkdtempSync(join(tmpdir(), 'toolwright-hostile-'));
  folders.push(folder);
  const file = join(folder, 'received');
  const proxy = await proxyServer({
    command: process.execPath,
    args: [HOSTILE, list],
    stderr: 'ignore',
    protocol: '2025-11-25',
    name: 'hostile',
    logger,
    ...options,
    env: { HOSTILE_LOG: file, ...options.env },
  });
  started.push(proxy);
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [Own], mount: [{ app: proxy, namespace: 'h' }], logger });
  return { proxy, front, logged, received: () => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : []) };
}

/** The CPU time this process has used since `since` (from `process.cpuUsage()`), in ms: unlike the time on the clock, other work on a loaded machine does not add to it. */
const cpuMsSince = (since: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};
const textOf = (result: { content?: unknown }) => (result.content as { type: string; text?: string }[]).map((c) => c.text ?? '').join('\n');
const names = async (client: { listTools(): Promise<{ tools: { name: string }[] }> }) => (await client.listTools()).tools.map((t) => t.name).sort();

describe('names from the upstream', () => {
  it('serves Object.prototype member names like any other, a repeated name or URI once, and leaves out invalid tool names with a warning', async () => {
    const { front, logged } = await hostile('names');
    const client = await createTestClient(front);
    expect(await names(client)).toEqual(['h___proto__', 'h_constructor', 'h_echo', 'h_hasOwnProperty', 'h_ok.name-1', 'h_toString', 'own']);
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(textOf(await client.callTool({ name: `h_${name}`, arguments: {} }))).toBe(`called ${name}`);
    }
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['h___proto__', 'h_constructor']);
    // (An argument named __proto__ does not reach the proxy: the SDK's schemas drop such a key when they parse a request.)
    expect((await client.getPrompt({ name: 'h___proto__' })).messages[0]?.content).toMatchObject({ type: 'text', text: expect.stringMatching(/^prompt __proto__ /) });
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['up://__proto__', 'up://toString']);
    expect((await client.readResource({ uri: 'up://__proto__' })).contents[0]).toMatchObject({ text: 'read up://__proto__' });
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^upstream 'hostile': tool "echo" is listed twice; only the first is served/),
        expect.stringMatching(/^upstream 'hostile': prompt "__proto__" is listed twice/),
        expect.stringMatching(/^upstream 'hostile': resource "up:\/\/__proto__" is listed twice/),
        expect.stringMatching(/^upstream 'hostile': tool "has space" is not served: a tool name is 1-128 characters/),
        expect.stringMatching(/^upstream 'hostile': tool "" is not served/),
        expect.stringMatching(/^upstream 'hostile': tool "x{80}"\.\.\. \(200 characters\) is not served/),
      ]),
    );
    await client.close();
  });

  it('leaves out a tool the upstream adds later whose namespaced name is too long, with an error in the log', async () => {
    const { front, logged, received } = await hostile('growing');
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 2, 'the second listing');
    await waitFor(() => logged.some((line) => line.includes('130 characters long under the namespace')), 'the error about the long name', { detail: () => logged.join('\n') });
    expect(await names(client)).toEqual(['h_echo', 'own']);
    await client.close();
  });
  it("leaves out a tool the upstream adds later whose namespaced name is the parent's own, with an error in the log", async () => {
    class Late {
      @Tool({ name: 'h_late', description: 'The parent app own tool h_late.' })
      late() {
        return 'parent';
      }
    }
    const { proxy, logged, received } = await hostile('late');
    const front = await createApp({
      name: 'front',
      version: '1.0.0',
      tools: [Late],
      mount: [{ app: proxy, namespace: 'h' }],
      logger: { debug: () => undefined, info: () => undefined, warn: (l) => void logged.push(l), error: (l) => void logged.push(l) },
    });
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 2, 'the second listing');
    await waitFor(() => logged.some((line) => line.includes("cannot add tool 'h_late': already served")), 'the error about the clash', { detail: () => logged.join('\n') });
    expect(await names(client)).toEqual(['h_echo', 'h_late']);
    expect(textOf(await client.callTool({ name: 'h_late', arguments: {} }))).toBe('parent');
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  });
});

describe('list changes from the upstream', () => {
  it('serves the newest list when an older listing is answered last', async () => {
    const { front, received } = await hostile('racing');
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 3, 'the third listing', { detail: () => received().join('\n') });
    await waitFor(async () => (await names(client)).includes('h_fresh'), 'the third listing to be served');
    // The second listing's answer (the stale list) comes 400 ms after it was asked; the upstream says once the proxy has taken it.
    await waitFor(() => received().includes('answered stale'), 'the proxy to take the stale answer', { detail: () => received().join('\n') });
    expect(await names(client)).toEqual(['h_fresh', 'own']);
    await client.close();
  });

  it('lists again a bounded number of times during a flood of list_changed', async () => {
    const { front, received } = await hostile('flood');
    const client = await createTestClient(front);
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(received().filter((line) => line.startsWith('tools/list')).length).toBeLessThan(20);
    expect(await names(client)).toEqual(['h_echo', 'own']);
    await client.close();
  });
});

describe('results from the upstream', () => {
  let up: Hostile;
  beforeAll(async () => {
    up = await hostile('plain', { requestTimeoutMs: 1000 });
    started.pop(); // Shared by the tests below: stopped after them, not after each.
  });
  afterAll(() => up.proxy.stop());

  it('fails a result whose structured content its outputSchema refuses, instead of passing it on', async () => {
    const client = await createTestClient(up.front);
    const result = await client.callTool({ name: 'h_bad_structured', arguments: {} });
    expect(result).toMatchObject({ isError: true });
    expect(result.structuredContent).toBeUndefined();
    expect(textOf(result)).toMatch(/tools\/call 'bad_structured'.*Structured content does not match the tool's output schema: data\/n must be number/);
    await client.close();
  });

  it('does not run the patterns of an upstream tool schema, so one that backtracks catastrophically cannot stall the proxy', async () => {
    const client = await createTestClient(up.front);
    // `^(a+)+$` on 26 a's and a '!' takes seconds of CPU on RegExp (each a more doubles it); the input and output schemas have three such patterns each.
    // The proxy runs in this process (the upstream in its own): its CPU time counts such a match, and a loaded machine's other work does not.
    const began = process.cpuUsage();
    const result = await client.callTool({ name: 'h_backtracking', arguments: { n: 26, s: `${'a'.repeat(26)}!` } });
    expect(cpuMsSince(began)).toBeLessThan(1500);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toEqual({ s: `${'a'.repeat(26)}!`, o: { [`${'a'.repeat(26)}!`]: 1 } });
    // The rest of the schema is still checked.
    expect(textOf(await client.callTool({ name: 'h_bad_structured', arguments: {} }))).toMatch(/data\/n must be number/);
    await client.close();
  });

  it('passes on only the first line of an upstream JSON-RPC error message, at most 300 characters', async () => {
    const client = await createTestClient(up.front);
    const result = await client.callTool({ name: 'h_refusing', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe("upstream 'hostile' refused tools/call 'refusing': database unavailable (JSON-RPC -32603).");
    await client.close();
  });

  it('passes on at most 100 log lines a second of a flooding upstream, then one note of how many it dropped, before the result', async () => {
    // Its own proxy, with the default request timeout: on a loaded machine the flood may take more than a second to relay.
    const { front } = await hostile('plain');
    const client = await createTestClient(front, { era: 'legacy' });
    await client.setLoggingLevel('info');
    const logs: { level: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    const started = Date.now();
    expect(textOf(await client.callTool({ name: 'h_log_flood', arguments: { lines: 5000 } }))).toBe('flooded');
    // One budget a second: the lines of the first second, in order, then (on a slow machine) each later second's.
    const windows = Math.ceil((Date.now() - started) / 1000) + 1;
    const lines = logs.filter((l) => l.level === 'info');
    const notes = logs.filter((l) => l.level === 'warning').map((l) => String(l.data));
    expect(lines.slice(0, 100).map((l) => l.data)).toEqual(Array.from({ length: 100 }, (_, i) => `line ${i}`));
    expect(lines.length).toBeLessThanOrEqual(100 * windows);
    for (const note of notes) expect(note).toMatch(/^\d+ log messages from upstream 'hostile' dropped: it sent more than 100 a second$/);
    expect(lines.length + notes.reduce((sum, note) => sum + parseInt(note, 10), 0)).toBe(5000);
    expect(logs.at(-1)?.level).toBe('warning');
    // A quiet upstream's lines all go.
    logs.length = 0;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    await client.callTool({ name: 'h_log_flood', arguments: { lines: 3 } });
    expect(logs.map((l) => l.data)).toEqual(['line 0', 'line 1', 'line 2']);
    await client.close();
  });

  it('passes on at most maxLogLinesPerSecond log lines a second when the proxy is given a smaller budget', async () => {
    const { front } = await hostile('plain', { maxLogLinesPerSecond: 10 });
    const client = await createTestClient(front, { era: 'legacy' });
    await client.setLoggingLevel('info');
    const logs: { level: string; data: unknown }[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params));
    expect(textOf(await client.callTool({ name: 'h_log_flood', arguments: { lines: 500 } }))).toBe('flooded');
    expect(logs.slice(0, 10).map((l) => l.data)).toEqual(Array.from({ length: 10 }, (_, i) => `line ${i}`));
    expect(logs.slice(10)).toEqual([{ level: 'warning', logger: 'h_log_flood', data: "490 log messages from upstream 'hostile' dropped: it sent more than 10 a second" }]);
    await client.close();
  });

  it('fails a result of the wrong shape with a message that says so, and keeps the upstream session', async () => {
    const client = await createTestClient(up.front);
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    const sessions = up.received().filter((line) => line.startsWith('initialize')).length;
    const result = await client.callTool({ name: 'h_unknown_block', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(
      /^upstream 'hostile' answered tools\/call 'unknown_block' with a result that is not valid MCP \(Invalid result for tools\/call: .{1,320}\)\. Ask the upstream's maintainers to fix it\.$/,
    );
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    expect(up.received().filter((line) => line.startsWith('initialize')).length).toBe(sessions);
    await client.close();
  });

  it('answers every other misbehaviour with a clear error, and keeps serving its own tool and the next call', async () => {
    const client = await createTestClient(up.front);
    const call = async (name: string) => textOf(await client.callTool({ name: `h_${name}`, arguments: {} }));
    const late = "upstream 'hostile' did not answer tools/call '%' in time (requestTimeoutMs). Try again, or raise the proxy's requestTimeoutMs.";
    expect(await call('silent')).toBe(late.replace('%', 'silent'));
    // The proxy gave up on it: the upstream is told to stop.
    await waitFor(() => up.received().some((line) => line.startsWith('notifications/cancelled')), 'the cancellation of the unanswered call', { detail: () => up.received().join('\n') });
    expect(await call('wrong_id')).toBe(late.replace('%', 'wrong_id'));
    expect(await call('no_result')).toBe(late.replace('%', 'no_result'));
    expect(await call('twice')).toBe('first');
    expect(await call('progress')).toBe('progressed');
    expect(JSON.parse(await call('ask_sampling'))).toMatchObject({ code: -32601 });
    expect(await call('exit')).toMatch(/^upstream 'hostile' closed the connection before answering tools\/call 'exit'/);
    expect(await call('echo')).toBe('called echo');
    expect(textOf(await client.callTool({ name: 'own', arguments: {} }))).toBe('own');
    await client.close();
  }, 20_000);

  it('fails a line over maxMessageBytes with a message that says so, and the next call opens another connection', async () => {
    const big = await hostile('plain', { maxMessageBytes: 256 * 1024 });
    const client = await createTestClient(big.front);
    const result = await client.callTool({ name: 'h_huge', arguments: { mb: 1 } });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "upstream 'hostile' sent a message larger than the proxy reads (maxMessageBytes, 262144 bytes) while answering tools/call 'huge', so the proxy closed that connection. Raise the proxy's maxMessageBytes, or have the upstream return less; the next request opens another connection.",
    );
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  });

  it('refuses a line over 10 MiB by default, the SDK stdio client limit', async () => {
    // A timeout of its own: the SDK reads a long line in time that grows with its square, slow on a loaded machine.
    const big = await hostile('plain', { requestTimeoutMs: 30_000 });
    const client = await createTestClient(big.front);
    expect(textOf(await client.callTool({ name: 'h_huge', arguments: { mb: 11 } }))).toMatch(/maxMessageBytes, 10485760 bytes/);
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  }, 40_000);
});

describe('messages over maxMessageBytes from an HTTP upstream', () => {
  class Big {
    @Tool({ description: 'Returns `kb` kilobytes of text.' })
    big(@Param('kb') kb: number) {
      return 'x'.repeat(kb * 1024);
    }
  }

  it.each([
    ['a JSON answer', { jsonResponse: true }],
    ['an event stream', { jsonResponse: false }],
  ])(
    'fails a call answered with %s over the limit, and keeps serving',
    async (_how, http) => {
      const upstream = await createApp({ name: 'big', version: '1.0.0', tools: [Big] });
      const listening = await upstream.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent', ...http });
      try {
        const logged: string[] = [];
        const logger = { debug: () => undefined, info: () => undefined, warn: (l: string) => void logged.push(l), error: (l: string) => void logged.push(l) };
        const proxy = await proxyServer({ url: `http://127.0.0.1:${listening.port}/mcp`, protocol: '2025-11-25', name: 'big', maxMessageBytes: 64 * 1024, logger });
        started.push(proxy);
        const front = await createApp({ name: 'front', version: '1.0.0', tools: [Own], mount: [{ app: proxy, namespace: 'b' }], logger });
        const client = await createTestClient(front);
        const refused = await client.callTool({ name: 'b_big', arguments: { kb: 200 } });
        expect(refused.isError).toBe(true);
        expect(textOf(refused)).toMatch(/^upstream 'big' sent a message larger than the proxy reads \(maxMessageBytes, 65536 bytes\) while answering tools\/call 'big'/);
        expect(textOf(await client.callTool({ name: 'b_big', arguments: { kb: 10 } }))).toHaveLength(10 * 1024);
        expect(textOf(await client.callTool({ name: 'own', arguments: {} }))).toBe('own');
        await client.close();
      } finally {
        await listening.close();
      }
    },
    20_000,
  );
});

describe('failures of an HTTP upstream', () => {
  /** A 2025-11-25 upstream over HTTP, in plain JavaScript: it lists the tool `leak`, and answers its call with HTTP 500 and a body that has a secret. */
  async function failingUpstream(): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number; method: string; params?: { protocolVersion?: string } };
        const answer = (result: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
        if (message.id === undefined) res.writeHead(202).end();
        else if (message.method === 'initialize') answer({ protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'failing', version: '0.0.0' } });
        else if (message.method === 'tools/list') answer({ tools: [{ name: 'leak', inputSchema: { type: 'object' } }] });
        else
          res
            .writeHead(500, { 'content-type': 'text/plain' })
            .end('Internal Server Error: connect failed with DATABASE_URL=postgres://admin:hunter2@db.internal/prod\n    at connect (/srv/app/db.js:12:7)');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  }

  it('does not pass on the body of an HTTP error answer, which may hold secrets, and logs it for the operator', async () => {
    const upstream = await failingUpstream();
    try {
      const logged: string[] = [];
      const logger = { debug: () => undefined, info: () => undefined, warn: (l: string) => void logged.push(l), error: (l: string) => void logged.push(l) };
      const proxy = await proxyServer({ url: upstream.url, protocol: '2025-11-25', name: 'failing', logger });
      started.push(proxy);
      const front = await createApp({ name: 'front', version: '1.0.0', tools: [Own], mount: [{ app: proxy, namespace: 'f' }], logger });
      const client = await createTestClient(front);
      const result = await client.callTool({ name: 'f_leak', arguments: {} });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toBe(
        "upstream 'failing' could not be reached for tools/call 'leak' (HTTP 500). Check that it is running; the proxy retries on the next request, and its log has the details.",
      );
      expect(logged.join('\n')).toMatch(/upstream 'failing': tools\/call 'leak' failed: .*hunter2/);
      await client.close();
    } finally {
      await upstream.close();
    }
  });
});

describe('shapes of the upstream lists', () => {
  it.each([
    ['not_array', /Invalid result for tools\/list: .*expected array/s],
    ['bad_schemas', /Invalid result for tools\/list: .*inputSchema/s],
    ['endless', /upstream 'hostile': tools\/list did not end after 64 pages \(the most a listing follows\): the upstream's nextCursor goes on, or goes round in a loop; fix its pagination/],
    ['cursor_loop', /upstream 'hostile': tools\/list did not end after 64 pages \(the most a listing follows\): the upstream's nextCursor goes on, or goes round in a loop; fix its pagination/],
  ])('refuses to start on a %s tools/list with a clear error', async (list, message) => {
    await expect(hostile(list)).rejects.toThrow(message);
  });

  it('gives up on an upstream that never answers tools/list after listTimeoutMs, not requestTimeoutMs, naming it', async () => {
    // No clock here: a wait for requestTimeoutMs (600 s by default) would fail at jest's test timeout (30 s).
    const refused = hostile('hung', { listTimeoutMs: 300 });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(
      "Toolwright: proxyServer() could not connect to upstream 'hostile': tools/list did not finish within 300 ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly).",
    );
  });

  it('serves the last list while a listing again goes unanswered, warns naming the upstream after listTimeoutMs, and lists again', async () => {
    const { front, logged, received } = await hostile('hung_later', { listTimeoutMs: 300 });
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 2, 'the second listing');
    expect(await names(client)).toEqual(['h_echo', 'own']);
    await waitFor(
      () =>
        logged.some(
          (line) =>
            line ===
            "upstream 'hostile': relisting tools failed: tools/list did not finish within 300 ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly)",
        ),
      'the warning',
      {
        detail: () => logged.join('\n'),
      },
    );
    await waitFor(async () => (await names(client)).includes('h_fresh'), 'the third listing to be served');
    await client.close();
  });

  it('stopped while a listing again waits for its answer: the stop ends it without a warning', async () => {
    const { proxy, front, logged, received } = await hostile('hung_later', { listTimeoutMs: 20_000 });
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 2, 'the second listing');
    await client.close();
    await proxy.stop();
    // The listing's rejection (the session closed under it) is handled a few turns after the stop.
    for (let turn = 0; turn < 5; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(logged.filter((line) => line.includes('relisting'))).toEqual([]);
  });

  const SLOW_PAGES = 'tools/list did not finish within 400 ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly)';

  it('gives up on a tools/list whose pages each come in time but not all of them within listTimeoutMs, naming the upstream', async () => {
    // 20 pages of 150 ms each: every page well within listTimeoutMs, the whole listing 3 s. No clock here: a
    // bound on each page alone would let the listing finish, and the app would start instead of being refused.
    const refused = hostile('slow_pages', { listTimeoutMs: 400, env: { HOSTILE_PAGE_MS: '150', HOSTILE_PAGES: '20' } });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(`Toolwright: proxyServer() could not connect to upstream 'hostile': ${SLOW_PAGES}.`);
  });

  it('keeps the last list when a listing again does not finish within listTimeoutMs though each page comes in time, and warns naming the upstream', async () => {
    // After the first listing, 6 pages of 150 ms each: every page well within listTimeoutMs, the whole listing 900 ms.
    const { front, logged, received } = await hostile('slow_pages_later', { listTimeoutMs: 400, env: { HOSTILE_PAGE_MS: '150', HOSTILE_PAGES: '6' } });
    const client = await createTestClient(front);
    await waitFor(() => received().filter((line) => line.startsWith('tools/list')).length === 2, 'the second listing');
    const relisted = Date.now();
    await waitFor(() => logged.includes(`upstream 'hostile': relisting tools failed: ${SLOW_PAGES}`), 'the warning', { detail: () => logged.join('\n') });
    await waitFor(() => received().some((line) => line.startsWith('notifications/cancelled ')), 'the page in flight cancelled upstream', { detail: () => received().join('\n') });
    // Past the time all 6 pages would have taken: no more pages were asked for, and the last list is still served.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, relisted + 1200 - Date.now())));
    expect(received().filter((line) => line.startsWith('tools/list')).length).toBeLessThan(1 + 6);
    expect(await names(client)).toEqual(['h_echo', 'own']);
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  });

  const LISTINGS = ['prompts/list', 'resources/list', 'resources/templates/list'] as const;

  it.each(LISTINGS)('gives up on an upstream that never answers %s after listTimeoutMs, naming it, and the app serves its other upstreams', async (method) => {
    const { front } = await hostile('plain');
    const client = await createTestClient(front);
    // No clock here: a wait for requestTimeoutMs (600 s by default) would fail at jest's test timeout (30 s).
    const refused = hostile('plain', { listTimeoutMs: 300, env: { HOSTILE_HUNG: method } });
    await expect(refused).rejects.toThrow(ConfigError);
    await expect(refused).rejects.toThrow(
      `Toolwright: proxyServer() could not connect to upstream 'hostile': ${method} did not finish within 300 ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly).`,
    );
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  });

  it.each(LISTINGS)('answers its own clients from the last list while listing %s again goes unanswered, and warns naming the upstream after listTimeoutMs', async (method) => {
    // Long enough that the answers below come first on a loaded machine too; the warning comes this long after the relisting began.
    const RELIST_MS = 3000;
    const { front, logged, received } = await hostile('plain', { listTimeoutMs: RELIST_MS, env: { HOSTILE_HUNG: `${method}@2` } });
    const client = await createTestClient(front);
    // The method is the line's first word (the last line has no space after it: received() trims the file).
    await waitFor(() => received().filter((line) => line.split(' ')[0] === method).length === 2, 'the second listing');
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['h___proto__', 'h_constructor']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['up://__proto__', 'up://toString']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    // Answered before the relisting gave up, in order of events rather than on the clock: a proxy that
    // waited for the relisting would answer only after its warning.
    expect(logged.filter((line) => line.includes('relisting'))).toEqual([]);
    const kind = method === 'prompts/list' ? 'prompts' : 'resources';
    await waitFor(
      () =>
        logged.includes(
          `upstream 'hostile': relisting ${kind} failed: ${method} did not finish within ${RELIST_MS} ms (listTimeoutMs bounds a whole listing, all its pages; raise it for an upstream that lists slowly)`,
        ),
      'the warning',
      {
        detail: () => logged.join('\n'),
      },
    );
    expect(textOf(await client.callTool({ name: 'h_echo', arguments: {} }))).toBe('called echo');
    await client.close();
  });

  it('serves a list whose nextCursor names its own page, asking for that page once more', async () => {
    const { front, received } = await hostile('same_cursor');
    const client = await createTestClient(front);
    expect(await names(client)).toEqual(['h_echo', 'own']);
    expect(received().filter((line) => line.startsWith('tools/list'))).toHaveLength(2);
    await client.close();
  });
});
