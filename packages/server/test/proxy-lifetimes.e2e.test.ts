import 'reflect-metadata';
import { Ctx, Param, Resource, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { proxyServer, type ProxiedServer } from '@toolwright/server/proxy';
import { createTestClient } from '@toolwright/server/testing';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { signal, waitFor } from './fixtures/waitFor';

/**
 * What the proxy holds and for whom: an upstream session opened for a downstream connection
 * that closes meanwhile is closed too, and none is opened for a connection that closed before
 * its call reached the proxy; a full pool says so; a proxy stopped while it reconnects stays
 * stopped, and one stopped and started again then holds one session of its own; a
 * parked call resumes only for its own caller, also when the verifier names no subject; the
 * credentials hook sees the token a downstream session sends now, not its first; and the
 * upstream's name never reaches the parent's clients as the server's. A Toolwright app over real
 * HTTP on 127.0.0.1 is the upstream; the SDK v2 client drives the parent.
 */
class Upstream {
  @Tool({ description: 'Echo a text.' })
  echo(@Param('text') text: string) {
    return text;
  }

  @Tool({ description: 'Asks its caller to confirm a transfer from the account the proxy says it acts for.' })
  async confirm(@Ctx() ctx: ToolContext) {
    const user = String(ctx.headers?.['x-user'] ?? '?');
    const answer = await ctx.elicit(`Confirm the transfer from the account of ${user}?`, { type: 'object', properties: { ok: { type: 'boolean' } } });
    return `transfer of ${user}: ${answer.action}`;
  }

  @Resource('up://items/{id}', { mimeType: 'text/plain' })
  item(@Param('id', { complete: (v: string) => ['apple'].filter((x) => x.startsWith(v)) }) id: string) {
    return `item ${id}`;
  }
}

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
/** One turn of the event loop: the promise callbacks an event just set off have all run. */
const turn = () => new Promise((resolve) => setImmediate(resolve));
/** Whether a fetch is the POST of an initialize request, which opens an upstream connection. */
const initializing = (init: RequestInit | undefined): init is RequestInit & { signal: AbortSignal } =>
  init?.method === 'POST' && init.signal != null && String(init.body).includes('"method":"initialize"');

let upstream: App;
let listener: HttpListener;
const proxies: ProxiedServer[] = [];
beforeAll(async () => {
  upstream = await createApp({ name: 'upstream', version: '1.0.0', tools: [Upstream] });
  listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet });
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.stop()));
});
afterAll(async () => {
  await listener.close();
});

async function proxied(options: Partial<Parameters<typeof proxyServer>[0]> = {}): Promise<ProxiedServer> {
  const proxy = await proxyServer({ url: listener.url, name: 'up', logger: silent, ...options } as Parameters<typeof proxyServer>[0]);
  proxies.push(proxy);
  return proxy;
}

it('closes the upstream session it was opening for a downstream connection that closed meanwhile', async () => {
  let slow = false;
  let opening!: () => void;
  const opened = new Promise<void>((resolve) => (opening = resolve));
  const answer = signal();
  // Each upstream connection, known by the signal of its initialize request (aborted when the connection is closed).
  const connections: AbortSignal[] = [];
  const proxy = await proxied({
    protocol: '2025-11-25',
    fetch: async (input, init) => {
      if (initializing(init)) connections.push(init.signal);
      // Only the first request of the next session (its initialize) is slow: answered once the test says so.
      if (slow) {
        slow = false;
        opening();
        await answer.promise;
      }
      return fetch(input, init);
    },
  });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
  const client = await createTestClient(front);
  slow = true;
  const call = client.callTool({ name: 'up_echo', arguments: { text: 'a' } }).catch((error: unknown) => error);
  await opened;
  await client.close();
  await call;
  // The connection has closed (the in-memory pair closes both ends at once): now the upstream answers the initialize.
  answer.resolve();
  // The session opened after the connection closed: nothing else would ever close it, and it would count towards maxSessions.
  const late = connections.at(-1);
  await waitFor(() => late?.aborted, 'the upstream session opened for the closed connection to be closed');
  expect(proxy.status.sessions).toBe(0);
});

/**
 * A proxy mounted by a front app whose own session dropped (an answer over maxMessageBytes ends
 * it) and whose reconnect now waits for its initialize answer until the test calls `answer()`
 * (`reconnect` is the signal of that reconnect's connection). `open()` counts the
 * upstream connections the proxy holds: each is known by the signal of its initialize request,
 * which the SDK's transport aborts when the connection is closed.
 */
async function reconnectingProxy() {
  let bloat = false;
  let slow = false;
  let reconnecting!: () => void;
  const reconnected = new Promise<void>((resolve) => (reconnecting = resolve));
  const logged: string[] = [];
  const connections: AbortSignal[] = [];
  const answer = signal();
  const proxy = await proxied({
    protocol: '2025-11-25',
    maxMessageBytes: 100_000,
    reconnect: { initialDelayMs: 10, maxDelayMs: 20 },
    logger: { ...silent, info: (line: string) => void logged.push(line), warn: (line: string) => void logged.push(line) },
    fetch: async (input, init) => {
      if (initializing(init)) connections.push(init.signal);
      if (bloat && init?.method === 'POST') return new Response('x'.repeat(200_000), { headers: { 'content-type': 'application/json' } });
      // Only the first request of the reconnect (its initialize) is slow.
      if (slow) {
        slow = false;
        reconnecting();
        await answer.promise;
      }
      return fetch(input, init);
    },
  });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
  const client = await createTestClient(front);
  const open = () => connections.filter((signal) => !signal.aborted).length;
  expect(open()).toBe(1);
  bloat = true;
  // Completions go on the proxy's own session.
  await complete(client).catch(() => undefined);
  bloat = false;
  slow = true;
  await waitFor(() => logged.some((line) => line.includes('reconnecting')), 'the proxy to reconnect');
  await reconnected;
  return { proxy, client, logged, open, answer: answer.resolve, reconnect: connections.at(-1) };
}

const complete = (client: Awaited<ReturnType<typeof createTestClient>>) => client.complete({ ref: { type: 'ref/resource', uri: 'up://items/{id}' }, argument: { name: 'id', value: 'a' } });

it('stays stopped when it is stopped while it reconnects', async () => {
  const { proxy, client, logged, answer, reconnect } = await reconnectingProxy();
  await proxy.stop();
  answer();
  // The reconnect's connection ends: closed (stopped while it connected), or kept as the proxy's session.
  await waitFor(() => reconnect?.aborted || proxy.status.connected, 'the stale reconnect to end');
  await turn();
  // Nor does it try again (a retry logs its failure before it waits).
  expect(logged.filter((line) => line.includes('reconnect failed'))).toEqual([]);
  expect(proxy.status).toEqual({ connected: false, protocolVersion: undefined, sessions: 0 });
  await client.close();
});

it('holds one session of its own when it is stopped and started again while it reconnects', async () => {
  const { proxy, client, logged, open, answer, reconnect } = await reconnectingProxy();
  // The app that mounts it restarts (a stop, then a start) while the reconnect waits for its initialize answer.
  await proxy.stop();
  await proxy.start();
  answer();
  // The stale reconnect fails then (stopped while it connected), and must not try again over the session the start opened.
  await waitFor(() => reconnect?.aborted, 'the stale reconnect to be closed', { detail: () => logged.join('\n') });
  await turn();
  expect({ open: open(), retried: logged.filter((line) => line.includes('reconnect failed')) }).toEqual({ open: 1, retried: [] });
  await expect(complete(client)).resolves.toMatchObject({ completion: { values: ['apple'] } });
  await client.close();
  await proxy.stop();
  expect(open()).toBe(0);
});

it('holds one session of its own when it is started while it reconnects', async () => {
  const { proxy, client, logged, open, answer } = await reconnectingProxy();
  // A mounting app's start while the proxy has no session: it connects at once, and the reconnect ends later.
  await proxy.start();
  answer();
  await waitFor(() => logged.some((line) => line.endsWith(': reconnected')), 'the reconnect to end');
  // The session the reconnect replaced closes (without waiting for that close).
  await waitFor(() => open() === 1, 'one upstream session of its own', { detail: () => `${open()} open` });
  expect(open()).toBe(1);
  await expect(complete(client)).resolves.toMatchObject({ completion: { values: ['apple'] } });
  await client.close();
  await proxy.stop();
  expect(open()).toBe(0);
});

it('opens no upstream session for a connection that closed before its first call reached the proxy', async () => {
  const proxy = await proxied({ protocol: '2025-11-25', maxSessions: 1 });
  let entered!: () => void;
  const inMiddleware = new Promise<void>((resolve) => (entered = resolve));
  const decided = signal();
  const passed = signal();
  const front = await createApp({
    name: 'front',
    version: '1.0.0',
    tools: [],
    mount: [{ app: proxy, namespace: 'up' }],
    // A slow guard of the parent's (an auth check, a shared rate-limit store): the client leaves meanwhile.
    middleware: [
      async (_call: unknown, next: () => Promise<unknown>) => {
        entered();
        await decided.promise;
        try {
          return await next();
        } finally {
          passed.resolve();
        }
      },
    ],
    logger: silent,
  });
  const client = await createTestClient(front);
  const call = client.callTool({ name: 'up_echo', arguments: { text: 'a' } }).catch((error: unknown) => error);
  await inMiddleware;
  await client.close();
  await call;
  // The guard lets the call through only now, after the client left; then the call has gone as far as it goes.
  decided.resolve();
  await passed.promise;
  // Nothing would ever close a session opened for that connection, and it would hold the one place of maxSessions.
  expect(proxy.status.sessions).toBe(0);
  const next = await createTestClient(front);
  const result = await next.callTool({ name: 'up_echo', arguments: { text: 'b' } });
  await next.close();
  expect(result).toMatchObject({ content: [{ type: 'text', text: 'b' }] });
  expect(result.isError).toBeUndefined();
});

it('tells a client that the proxy has maxSessions upstream sessions open, not that the upstream cannot be reached', async () => {
  const proxy = await proxied({ protocol: '2025-11-25', maxSessions: 1 });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }], logger: silent });
  // The first client's connection holds the one upstream session until it closes.
  const first = await createTestClient(front);
  await first.callTool({ name: 'up_echo', arguments: { text: 'a' } });
  const second = await createTestClient(front);
  const refused = await second.callTool({ name: 'up_echo', arguments: { text: 'b' } });
  expect(refused).toEqual({
    content: [
      {
        type: 'text',
        text: "upstream 'up' was not asked for tools/call 'echo': the proxy has as many upstream sessions open as its maxSessions allows (1). Try again once another client has finished; if this happens often, raise the proxy's maxSessions.",
      },
    ],
    isError: true,
  });
  await first.close();
  await waitFor(() => proxy.status.sessions === 0, "the first client's upstream session to close");
  expect((await second.callTool({ name: 'up_echo', arguments: { text: 'b' } })).content).toEqual([{ type: 'text', text: 'b' }]);
  await second.close();
});

it("never resumes a caller's parked call for another caller of the same client, when the verifier names no subject", async () => {
  const proxy = await proxied({ protocol: '2025-11-25', credentials: (caller) => ({ 'x-user': caller?.token ?? 'anonymous' }) });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
  let release!: () => void;
  const later = new Promise<void>((resolve) => (release = resolve));
  const asked: Record<'alice' | 'bob', string[]> = { alice: [], bob: [] };
  // Two users of one OAuth client, told apart by their tokens only.
  const alice = await createTestClient(front, {
    era: 'modern',
    auth: { clientId: 'app', token: 'alice' },
    elicitation: async (request) => {
      asked.alice.push(request.message);
      await later;
      return { action: 'accept', content: { ok: true } };
    },
  });
  const bob = await createTestClient(front, {
    era: 'modern',
    auth: { clientId: 'app', token: 'bob' },
    elicitation: (request) => {
      asked.bob.push(request.message);
      return { action: 'decline' };
    },
  });
  // Alice's call waits, parked, for her answer; Bob makes the same request meanwhile.
  const aliceCall = alice.callTool({ name: 'up_confirm', arguments: {} });
  await waitFor(() => asked.alice.length === 1, "alice's question");
  const bobResult = await bob.callTool({ name: 'up_confirm', arguments: {} });
  release();
  const aliceResult = await aliceCall;
  expect(asked.bob).toEqual(['Confirm the transfer from the account of bob?']);
  expect(bobResult.content).toEqual([{ type: 'text', text: 'transfer of bob: decline' }]);
  expect(aliceResult.content).toEqual([{ type: 'text', text: 'transfer of alice: accept' }]);
  await alice.close();
  await bob.close();
});

it.each(['legacy', 'modern'] as const)("answers a %s client with the parent's name, not the 2026-07-28 upstream's", async (era) => {
  const proxy = await proxied({ protocol: '2026-07-28' });
  const front = await createApp({ name: 'front', version: '2.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
  const client = await createTestClient(front, { era });
  const named = (result: { _meta?: Record<string, unknown> }) => result._meta?.['io.modelcontextprotocol/serverInfo'];
  const expected = era === 'modern' ? { name: 'front', version: '2.0.0' } : undefined;
  expect(named(await client.callTool({ name: 'up_echo', arguments: { text: 'a' } }))).toEqual(expected);
  expect(named(await client.readResource({ uri: 'up://items/1' }))).toEqual(expected);
  await client.close();
});

it('asks the credentials hook with the token the downstream session sends now, not the one it started with', async () => {
  const tokens: string[] = [];
  const proxy = await proxied({ protocol: '2025-11-25', credentials: (caller) => (tokens.push(caller?.token ?? 'none'), {}) });
  const front = await createApp({ name: 'front', version: '1.0.0', tools: [], mount: [{ app: proxy, namespace: 'up' }] });
  const verifyToken = async (token: string) => ({ token, clientId: 'app', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: 'alice' } });
  const endpoint = await front.listen({ transport: 'http', port: 0, host: '127.0.0.1', ...quiet, auth: { verifyToken, authorizationServers: ['https://auth.example.com'] } });
  // One 2025-11-25 session whose client refreshes its token between two calls.
  let token = 'first';
  const client = new Client({ name: 'refreshing', version: '1.0.0' });
  const authorized: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { fetch: authorized }));
  await client.callTool({ name: 'up_echo', arguments: { text: 'a' } });
  expect(tokens.at(-1)).toBe('first');
  token = 'second';
  await client.callTool({ name: 'up_echo', arguments: { text: 'b' } });
  expect(tokens.at(-1)).toBe('second');
  await client.close();
  await endpoint.close();
});
