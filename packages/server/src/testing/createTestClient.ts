import { ConfigError, type AuthInfo } from '@toolwright/core';
import type { App, ServiceOverrides } from '../app/App';
import type { HttpListenOptions } from '../app/ListenOptions';
import { connectTestClient, type LegacyClient, type ModernClient, type TestClientHandlers, type TestClientWire } from './connectTestClient';
import { serveStdioEras } from '../serving/serveStdioEras';
import { overridesMapOf } from './overridesMapOf';
import { checkOverridesInjected } from '../compose/checkOverridesInjected';
import type { ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitRequestParams, ElicitResult, Root } from '../sdk/sdk';
import { refuseServing } from '../app/servingRefusal';
import { checkTestClientOptions } from './checkTestClientOptions';

export type { LegacyClient, ModernClient };

/** The protocol revisions a test client speaks: the 2025 handshake, or 2026-07-28 (no handshake, every request carries its era). */
export type TestProtocol = '2025-11-25' | '2026-07-28';
/** The same choice by era name: 'legacy' is 2025-11-25, 'modern' is 2026-07-28. */
export type TestEra = 'legacy' | 'modern';

/** A value, or a promise of one. */
export type Awaitable<T> = T | Promise<T>;

/**
 * The user's answer to `ctx.elicit` / `ctx.elicitUrl`: one answer for every question, a list
 * answered in order (the last one answers any further question), or a function of the question.
 */
export type ElicitationAnswer = ElicitResult | readonly ElicitResult[] | ((request: ElicitRequestParams) => Awaitable<ElicitResult>);

/** The model's answer to `ctx.sample`: its reply as text, a whole result, or a function of the request. */
export type SamplingAnswer = string | CreateMessageResult | ((request: CreateMessageRequestParams) => Awaitable<string | CreateMessageResult>);

/** The client's roots (`ctx.listRoots`): a list, or a function that returns it when asked. */
export type RootsAnswer = readonly Root[] | (() => Awaitable<readonly Root[]>);

/**
 * Who the caller is, as the app's members see it (`ctx.authInfo`, `@RequireScopes`,
 * `@RequireRoles`): memory and HTTP hand the app exactly this; a stdio child gets
 * `MCP_SCOPES`, `MCP_ROLES` and `MCP_CLIENT_ID` in its environment (what `envAuthInfo()` reads).
 */
export interface TestAuth {
  scopes?: readonly string[];
  /** In `authInfo.extra.roles`, where `@RequireRoles` reads them. */
  roles?: readonly string[];
  /** The token's claims, in `authInfo.extra.claims` (as `jwtVerifier` puts them); `sub` also goes to `extra.sub`. Not over stdio. */
  claims?: Readonly<Record<string, unknown>>;
  /** Default 'test-client'. */
  clientId?: string;
  /** The token itself (default 'test-token'); over HTTP the client sends it as its bearer token. */
  token?: string;
  /** Seconds since the epoch; default an hour from now. */
  expiresAt?: number;
}

export interface CommonTestClientOptions {
  /** The protocol revision to speak (default '2025-11-25'). Same as `era`. */
  protocol?: TestProtocol;
  /** 'legacy' (2025-11-25, the default) or 'modern' (2026-07-28). Same as `protocol`. */
  era?: TestEra;
  /** Answers to elicitation; declares the `elicitation` capability (form and URL). */
  elicitation?: ElicitationAnswer;
  /** Answers to sampling; declares the `sampling` capability. */
  sampling?: SamplingAnswer;
  /** The client's roots; declares the `roots` capability. */
  roots?: RootsAnswer;
  /** The caller the app sees. Default: anonymous. */
  auth?: TestAuth;
  /** More client capabilities to declare (those the answers imply are declared already). */
  capabilities?: ClientCapabilities;
  clientInfo?: { name: string; version: string };
}

/** The app in this process, over an in-memory transport (the default): no process, no port. */
export interface MemoryTestClientOptions extends CommonTestClientOptions {
  transport?: 'memory';
  /**
   * Test doubles for this client's calls only: `[[RealService, fake]]`. The classes that depend
   * on `RealService` are built for this client with the fake in place; the app's container,
   * and every other client, keep the real one. A class nothing in the app injects is refused
   * (the override would never be used), and so is one only guards inject (they run on the app's container).
   */
  overrides?: ServiceOverrides;
}

/** The app served by `app.listen({ transport: 'http', port: 0 })` on 127.0.0.1, closed with the client. */
export interface HttpTestClientOptions extends CommonTestClientOptions {
  transport: 'http';
  /** Sent as `Authorization: Bearer <token>` (for an app whose `listen.auth` checks tokens itself). */
  bearer?: string;
  /** More HTTP headers on every request. */
  headers?: Readonly<Record<string, string>>;
  /** More `app.listen` options (stateless, jsonResponse, auth, ...). Default requestLogLevel: 'silent'. */
  listen?: Omit<HttpListenOptions, 'transport' | 'port' | 'host'>;
}

/** A server process the client starts (`node dist/server.js`) and talks to over stdio; stopped with the client. */
export interface StdioTestClientOptions extends CommonTestClientOptions {
  transport: 'stdio';
  command: string;
  args?: readonly string[];
  cwd?: string;
  /** Added to this process's environment. */
  env?: Readonly<Record<string, string>>;
  /** The server's stderr (its logs): shown (default) or dropped. */
  stderr?: 'inherit' | 'ignore';
}

export type AppTestClientOptions = MemoryTestClientOptions | HttpTestClientOptions;
export type TestClientOptions = AppTestClientOptions | StdioTestClientOptions;

/**
 * The client a test gets: the SDK v2 `Client` (`@modelcontextprotocol/client`) in both eras,
 * speaking the 2025 handshake or pinned to 2026-07-28. The type parameters are the options'
 * `protocol` and `era`; the client's type is the same for every choice.
 */
export type TestClientFor<P extends TestProtocol | undefined, E extends TestEra | undefined = undefined> = [P, E] extends [TestProtocol | undefined, TestEra | undefined] ? ModernClient : never;

/**
 * A real SDK client connected to the app, already initialized, for your own tests. By
 * default over an in-memory transport in the 2025 era; `transport: 'http'` serves the app
 * on a free port of 127.0.0.1, and `createTestClient({ transport: 'stdio', command, args })`
 * starts a built server instead. `protocol: '2026-07-28'` speaks the modern era.
 * `await client.close()` ends both sides (and the HTTP listener or the child process).
 */
export function createTestClient<P extends TestProtocol | undefined = undefined, E extends TestEra | undefined = undefined>(
  app: App,
  options?: AppTestClientOptions & { protocol?: P; era?: E },
): Promise<TestClientFor<P, E>>;
export function createTestClient<P extends TestProtocol | undefined = undefined, E extends TestEra | undefined = undefined>(
  options: StdioTestClientOptions & { protocol?: P; era?: E },
): Promise<TestClientFor<P, E>>;
export async function createTestClient(target: App | StdioTestClientOptions, given?: AppTestClientOptions): Promise<ModernClient> {
  checkTarget(target);
  const options: unknown = isApp(target) ? (given ?? {}) : target;
  checkTestClientOptions(options, isApp(target));
  const modern = eraOf(options) === 'modern';
  const setup = {
    modern,
    clientInfo: options.clientInfo ?? { name: 'toolwright-test-client', version: '0.0.0' },
    capabilities: options.capabilities ?? {},
    handlers: handlersOf(options),
  };
  const authInfo = options.auth && authInfoOf(options.auth);
  if (options.transport === 'stdio') return connectTestClient(setup, stdioWire(options));
  const app = target as App;
  // An app that may not serve its own clients says why here, not as a first message left unanswered.
  refuseServing(app);
  if (options.transport === 'http') return connectOverHttp(app, options, setup, authInfo);
  const overrides = overridesMapOf(options.overrides);
  checkOverridesInjected(overrides, app, 'createTestClient');
  const wire: TestClientWire = {
    kind: 'memory',
    // The first message picks the era, as over stdio.
    serve: (transport) =>
      serveStdioEras(
        transport,
        ({ era }) => app.createServer({ era, authInfo, overrides }),
        () => undefined,
      ),
  };
  return connectTestClient(setup, wire);
}

async function connectOverHttp(app: App, options: HttpTestClientOptions, setup: Parameters<typeof connectTestClient>[0], authInfo: AuthInfo | undefined): Promise<ModernClient> {
  if (authInfo && options.listen?.auth) throw new ConfigError('createTestClient: pass either auth (the caller the app sees) or listen.auth with a bearer token, not both.');
  const auth = authInfo && {
    verifyToken: (token: string) => (token === authInfo.token ? authInfo : undefined),
  };
  // Quiet unless the test asks for a request log (by either name: two would have to agree).
  const quiet = options.listen?.requestLogLevel === undefined && options.listen?.logLevel === undefined;
  const listener = await app.listen({ ...(quiet && { requestLogLevel: 'silent' }), ...options.listen, ...(auth && { auth }), transport: 'http', port: 0, host: '127.0.0.1', exitOnSignal: false });
  const bearer = options.bearer ?? authInfo?.token;
  const headers = { ...options.headers, ...(bearer !== undefined && { Authorization: `Bearer ${bearer}` }) };
  try {
    const client = await connectTestClient(setup, { kind: 'http', url: new URL(listener.url), headers });
    const close = client.close.bind(client);
    client.close = async () => {
      await close();
      await listener.close();
    };
    return client;
  } catch (error) {
    await listener.close();
    throw error;
  }
}

function stdioWire(options: StdioTestClientOptions): TestClientWire {
  if (options.auth?.claims)
    throw new ConfigError('createTestClient: auth.claims cannot reach a stdio server (it reads its caller from MCP_SCOPES, MCP_ROLES and MCP_CLIENT_ID); use scopes, roles and clientId.');
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value;
  if (options.auth) {
    env.MCP_SCOPES = (options.auth.scopes ?? []).join(' ');
    env.MCP_ROLES = (options.auth.roles ?? []).join(' ');
    env.MCP_CLIENT_ID = options.auth.clientId ?? 'test-client';
  }
  Object.assign(env, options.env);
  return { kind: 'stdio', command: options.command, args: options.args ?? [], cwd: options.cwd, env, stderr: options.stderr ?? 'inherit' };
}

function eraOf(options: TestClientOptions): 'legacy' | 'modern' {
  const byProtocol = options.protocol && (options.protocol === '2026-07-28' ? 'modern' : 'legacy');
  if (options.protocol !== undefined && options.protocol !== '2025-11-25' && options.protocol !== '2026-07-28') {
    throw new ConfigError(`createTestClient: unknown protocol '${String(options.protocol)}'. Use '2025-11-25' or '2026-07-28'.`);
  }
  if (byProtocol && options.era && byProtocol !== options.era)
    throw new ConfigError(`createTestClient: protocol '${options.protocol}' is the ${byProtocol} era, not '${options.era}'. Pass one of them.`);
  return byProtocol ?? options.era ?? 'legacy';
}

function handlersOf(options: TestClientOptions): TestClientHandlers {
  const { elicitation, sampling, roots } = options;
  const handlers: TestClientHandlers = {};
  if (elicitation !== undefined) {
    let asked = 0;
    handlers.elicit = async (request) => {
      if (typeof elicitation === 'function') return elicitation(request);
      if (!Array.isArray(elicitation)) return elicitation as ElicitResult;
      const answers = elicitation as readonly ElicitResult[];
      if (answers.length === 0) throw new ConfigError('createTestClient: the elicitation answer list is empty. Give it at least one ElicitResult, or a function that answers each request.');
      return answers[Math.min(asked++, answers.length - 1)];
    };
  }
  if (sampling !== undefined) {
    handlers.sample = async (request) => {
      const answer = typeof sampling === 'function' ? await sampling(request) : sampling;
      return typeof answer === 'string' ? { role: 'assistant', content: { type: 'text', text: answer }, model: 'toolwright-test-model' } : answer;
    };
  }
  if (roots !== undefined) handlers.listRoots = async () => ({ roots: [...(typeof roots === 'function' ? await roots() : roots)] });
  return handlers;
}

/** The AuthInfo the app's members see for `auth`. */
function authInfoOf(auth: TestAuth): AuthInfo {
  const claims = auth.claims ?? {};
  const extra: Record<string, unknown> = { roles: [...(auth.roles ?? [])] };
  if (auth.claims) extra.claims = { ...claims };
  if (typeof claims.sub === 'string') extra.sub = claims.sub;
  return {
    token: auth.token ?? 'test-token',
    clientId: auth.clientId ?? 'test-client',
    scopes: [...(auth.scopes ?? [])],
    expiresAt: auth.expiresAt ?? Math.floor(Date.now() / 1000) + 3600,
    extra,
  };
}

/** Fails at once, saying how to call it, when the first argument is neither an app nor stdio options (a forgotten `await createApp(...)` among them). */
function checkTarget(target: unknown): void {
  if (typeof (target as PromiseLike<unknown> | undefined)?.then === 'function')
    throw new ConfigError('createTestClient: got a Promise, not an app. Await the app first: createTestClient(await createApp({ ... })).');
  if (target === null || typeof target !== 'object' || (!isApp(target as App) && (target as { transport?: unknown }).transport !== 'stdio'))
    throw new ConfigError(
      `createTestClient: the first argument must be the app createApp returned, or { transport: 'stdio', command, args } for a server process; got ${target === null ? 'null' : typeof target}.`,
    );
}

function isApp(target: App | TestClientOptions): target is App {
  return typeof (target as App).createServer === 'function';
}
