import type { AccessRules, Class, Registry } from '@toolwright/core';
import type { ListControl } from '../surface/ListControl';
import type { Transport } from '../sdk/sdk';
import type { HttpListener } from '../http/HttpListener';
import type { ChangeNotifier } from '../surface/Connections';
import type { Listener } from '../serving/Listener';
import type { McpServerHandle, ServerFactory, ServerSetup, ServiceOverrides } from '../serving/ServerFactory';
import type { HttpListenOptions, ListenOptions } from './ListenOptions';
import type { Mount } from '../compose/Mount';

export type { Listener } from '../serving/Listener';
export type { ListenerRelease, McpServerHandle, ServerFactory, ServerSetup, ServiceOverrides } from '../serving/ServerFactory';

/** A built Toolwright app: a frozen registry and the means to serve it. */
export interface App extends ServerFactory {
  readonly name: string;
  readonly version: string;
  readonly registry: Registry;
  /**
   * A new MCP server wired to the registry, for one era: a 2025-era connection (the
   * default) or 2026-07-28 requests. Use one per connection (or per request); never share
   * one. It is the SDK's `Server` at runtime, so an SDK entry takes it from a server factory:
   * `createMcpHandler(({ era }) => app.createServer({ era }) as Server)`.
   * `authInfo`: the caller of every request it serves, when no transport names one (stdio).
   * `overrides`: instances that replace services for this server's calls only (tests); the
   * classes that depend on them are built for this server, never touching the app's container.
   * An override of a class nothing in the app injects is refused (`ConfigError`, naming it).
   */
  createServer(setup?: ServerSetup): McpServerHandle;
  /** Creates a 2025-era server for this transport (any SDK `Transport`), connects it and returns it; `overrides` as for `createServer`. */
  connect(transport: Transport, context?: { overrides?: ServiceOverrides }): Promise<McpServerHandle>;
  /**
   * Runs the start hooks (`listen` does it first): `onStart` and every `@OnStart()` method. Once
   * while the app is started; after a stop completed, they run again.
   */
  start(): Promise<void>;
  /**
   * Runs the shutdown hooks (a listener does it when the app's last listener closed, after its
   * calls drained and the app's work still in flight settled, up to its drain timeout): every
   * `@OnShutdown()` method, then `onShutdown`. Once until the app starts again; an app never
   * started has nothing to close, and its stop runs no hook. The extensions stop first (a tasks
   * worker takes no more tasks); then, given `drainTimeoutMs`, the stop waits up to that long
   * for the work still in flight (a task's run) before the shutdown hooks close what it uses.
   * Without it (or with 0) it does not wait; a mounted app it stops does not wait either, and
   * one given the time waits only for what is left of it. A number for `drainTimeoutMs` must be
   * a whole number of milliseconds below 2^31 (else a `ConfigError`); any other argument means no
   * wait, so `afterEach(app.stop)` and `process.once('SIGTERM', app.stop)` work as callbacks.
   */
  stop(drainTimeoutMs?: number): Promise<void>;
  /**
   * Tells `notifier` of every list change and resource update from now on (for endpoints
   * whose 2026-07-28 clients listen with `subscriptions/listen`); returns the function that stops it.
   */
  addNotifier(notifier: ChangeNotifier): () => void;
  /**
   * Answers one web-standard request: the app's endpoint as `createFetchHandler(app)` serves it
   * with every option at its default (`/mcp`, both eras, 2025-era sessions in this process's
   * memory, loopback Host names only), made on the first request once the start hooks ran.
   * So a module can `export default app` where the runtime serves a default export's `fetch`
   * (`deno serve`; Bun takes an object with `stop()` for a running server: there,
   * `export default { fetch: app.fetch }`). It needs no `this`. Other settings (public host names, `stateless` for
   * Workers, auth, a cluster): `createFetchHandler(app, options)` from `@toolwright/server/fetch`.
   */
  fetch(request: Request): Promise<Response>;
  /** Serves over stdio or HTTP. */
  listen(options: HttpListenOptions): Promise<HttpListener>;
  listen(options: ListenOptions): Promise<Listener>;
  /** Tools by name: enable, disable or remove at runtime (clients get `notifications/tools/list_changed`). */
  readonly tools: ListControl;
  /** Resources by URI or URI template: enable, disable or remove at runtime. */
  readonly resources: ListControl;
  /** Prompts by name: enable, disable or remove at runtime. */
  readonly prompts: ListControl;
  /** The access rules of the tool served under `name` now (tools added, removed or disabled at runtime included). */
  toolAccess(name: string): AccessRules | undefined;
  /**
   * Mounts more apps, as the `mount` option does: `await app.mount(billing, { namespace: 'billing' })`,
   * or several at once: `await app.mount({ app: billing, namespace: 'billing' }, { app: support, namespace: 'support' })`.
   * While the app serves, the mounted apps' start hooks run first and clients then get
   * list-changed notifications; once the app stopped, the mounted apps start when it starts
   * again. A clash is a `BuildError`, and then nothing is mounted.
   */
  mount(...mounts: Mount[] | [app: Mount['app'], options: Omit<Mount, 'app'>]): Promise<void>;
  /** Builds more decorated classes (or glob patterns) and serves them from now on; names must be new. */
  add(...classes: (Class | string)[]): Promise<void>;
  /**
   * Tells the clients subscribed to `uri` that it changed (`notifications/resources/updated`).
   * Returns how many connections were told. A URI the app does not serve now (its resource or
   * template disabled or removed) tells nobody; the subscriptions stay, and hear of it again once it is enabled.
   */
  notifyResourceUpdated(uri: string): number;
  /**
   * Number of calls running right now, across all connections. A call counts from the moment the
   * server accepts it (an extension's `aroundToolCall` holding it before it runs counts) until its
   * answer is settled, and a task's run until the store has its outcome.
   */
  readonly inFlight: number;
  /**
   * Waits until no call is running, or `timeoutMs` (default 10000, a whole number of milliseconds
   * below 2^31; an argument that is not a number means the default) passes; true if all finished. The extensions still run meanwhile (a tasks worker
   * still takes tasks): to stop an app once its work ended, call `app.stop(drainTimeoutMs)` instead.
   */
  drain(timeoutMs?: number): Promise<boolean>;
}
