import { ConfigError } from '@toolwright/core';
import { buildRegistry } from '@toolwright/core';
import { createDefaultContainer, timeoutProblem } from '@toolwright/core/internal';
import type { Transport } from '../sdk/sdk';
import { cacheHintsOf } from './cacheHintsOf';
import { ToolwrightServer } from '../sdk/ToolwrightServer';
import { schemaValidatorProvider } from '../sdk/schemaValidatorProvider';
import type * as TracedServerClass from '../handlers/tracedServerClass';
import { Telemetry } from '../telemetry/Telemetry';
import { createToolBinding, directToolCall, registerToolHandlers } from '../handlers/registerToolHandlers';
import { unservedNeedsCheck } from '../handlers/unservedNeedsCheck';
import { createFastPaths, fastPathsWanted, type FastPaths } from '../lanes/FastPaths';
import { installFastPaths } from '../lanes/fastPathsOf';
import type { App, Listener } from './App';
import type { AppOptions } from './AppOptions';
import { PendingCount } from '../ground/PendingCount';
import type { ListenOptions } from './ListenOptions';
import { loadToolClasses } from './loadToolClasses';
import { assertSupportedNode } from './assertSupportedNode';
import { createLifecycle } from './createLifecycle';
import { stderrLogger } from '@toolwright/core';
import { Surface } from '../surface/Surface';
import { ServedExtensions } from '../extensions/ServedExtensions';
import { paramHeadersOf } from './paramHeadersOf';
import type { ReadViewFile } from '@toolwright/core';
import type { ListControl } from '../surface/ListControl';
import type { ListKind } from '../surface/Catalog';
import type { Mount } from '../compose/Mount';
import { registerMountSource } from '../compose/MountSource';
import { drainTimeoutOf } from '../serving/drainTimeoutOf';
import { DEFAULT_DRAIN_TIMEOUT_MS } from '../serving/drainWindow';
import type { MountedHold } from '../compose/holdMounted';
import type { MemberLimits } from '../pipeline/ServedMember';
import { checkLogging } from './checkLogging';
import { checkAppOptions } from './checkAppOptions';
import { checkListenOptions } from './checkListenOptions';
import { installServingRefusal, refuseServing, servingRefusalOf } from './servingRefusal';
import { DEFAULT_GUARD_TIMEOUT_MS } from '../pipeline/passesGuards';

/**
 * Builds an app: loads the tool classes, derives and checks every schema once (throwing a
 * `BuildError` that lists all problems), and returns an `App` ready to serve.
 */
export async function createApp(options: AppOptions): Promise<App> {
  assertSupportedNode();
  checkAppOptions(options);
  checkLogging(options);
  const extensions = new ServedExtensions(options.extensions ?? [], options.logger ?? stderrLogger('extensions'));
  const tools = [...(await loadToolClasses(options.tools, options.cwd)), ...(await extensions.prepare())];
  const container = options.container ?? createDefaultContainer();
  checkMiddleware(options.middleware);
  for (const key of ['timeoutMs', 'toolTimeoutMs', 'guardTimeoutMs'] as const) checkTimeout(key, options[key]);
  // The view file reader (node:fs) is loaded by the first `@UiResource({ file })` the build reads.
  let viewFiles: ReadViewFile | undefined;
  const readViewFile: ReadViewFile = (path, declaredIn) =>
    (viewFiles ??= (require('../extensions/apps/viewFileReader') as typeof import('../extensions/apps/viewFileReader')).viewFileReader())(path, declaredIn);
  const registry = buildRegistry({ tools, container, middleware: options.middleware, coerce: options.coerce, logger: options.logger, readViewFile });
  const inFlight = new PendingCount();
  const surface = new Surface(registry, {
    name: options.name,
    container,
    inFlight,
    middleware: options.middleware,
    timeoutMs: options.timeoutMs,
    pageSize: options.pageSize,
    logLevel: options.logLevel,
    listChangedDebounceMs: options.listChangedDebounceMs,
    toolTimeoutMs: options.toolTimeoutMs,
    guardTimeoutMs: options.guardTimeoutMs,
    logger: options.logger,
    requestState: options.requestState,
    maxUriLength: options.maxUriLength,
    maxLogLength: options.maxLogLength,
  });
  const mounts = [...(options.mount ?? [])];
  // The extensions this app serves: a mounted tool that needs another (a `task: 'required'` one without `tasks()`) is refused.
  const extensionIds: ReadonlySet<string> = new Set(extensions.extensions.map((e) => e.id));
  // What the app calls to let go of each mounted app it started (see holdMounted).
  const holds: MountedHold[] = [];
  // Composition is loaded by the apps that mount others (a server that mounts nothing never runs it).
  if (options.mount !== undefined) (require('../compose/mountApps') as typeof import('../compose/mountApps')).mountApps(options.mount, surface, options.logger ?? stderrLogger('mount'), extensionIds);
  // Whether the mounted apps are started now, and how many times they were stopped (app.mount() reads both).
  const phase = { started: false, stops: 0 };
  // Where the app tells why it does not serve a client (see servingRefusal) or a call (see unservedNeedsCheck).
  const serveLogger = options.logger ?? stderrLogger('serve');
  const binding = createToolBinding(surface, unservedNeedsCheck(extensionIds, options.name, serveLogger));
  const telemetry = new Telemetry(options.telemetry);
  // The one place the fast paths are made (see FastPaths); with them off, every message goes the SDK's way.
  // Stateless HTTP asks per request: while telemetry records, no call skips the SDK's path.
  // Made on first use, which reads TOOLWRIGHT_FAST_PATHS: a 2026-07-28 request never asks, and on a
  // Worker reading node's `process` would cost its cold start. null: off.
  let fastPaths: FastPaths | null | undefined;
  const fastPathsNow = (): FastPaths | undefined => {
    if (fastPaths === undefined) {
      const untraced = directToolCall(binding);
      fastPaths = fastPathsWanted(options.fastPaths) ? createFastPaths((params, caller) => (telemetry.instruments() ? undefined : untraced(params, caller))) : null;
    }
    return fastPaths ?? undefined;
  };
  const lifecycle = createLifecycle({
    classes: [...new Set([...tools, ...(options.services ?? [])])],
    container,
    onStart: options.onStart,
    onShutdown: options.onShutdown,
    // The mounted apps serve inside this one: they start before its hooks and stop after them.
    first: { name: 'a mounted app', start: () => startMounted(mounts, holds, phase), stop: (drainTimeoutMs) => stopMounted(holds, phase, drainTimeoutMs) },
    // The extensions use what the hooks open (a worker calls tools): they start after every hook, with the app (built below by then), and stop first.
    // Their runs outside any request (`callTool`) are not the app's clients: a mounted app's still run (see servingRefusal).
    last: {
      name: 'an extension',
      start: () => extensions.start({ add: app.add, tools: app.tools, resources: app.resources, prompts: app.prompts, createServer: makeServer, inFlight }),
      stop: () => extensions.stop(),
    },
    // Once the extensions stopped (no worker takes a task), the work still in flight ends before the shutdown hooks close what it uses.
    drain: (timeoutMs) => inFlight.drain(timeoutMs),
    logger: options.logger ?? stderrLogger('lifecycle'),
  });
  const control = (kind: ListKind): ListControl =>
    Object.freeze({
      enable: (key: string) => surface.catalog.setEnabled(kind, key, true),
      disable: (key: string) => surface.catalog.setEnabled(kind, key, false),
      remove: (key: string) => surface.catalog.remove(kind, key),
    });
  const info = stripUndefined({
    name: options.name,
    version: options.version,
    title: options.title,
    description: options.description,
    websiteUrl: options.websiteUrl,
    icons: options.icons,
  });
  const instructions = options.instructions;
  const cacheHints = cacheHintsOf(options.cache);
  let openListeners = 0;
  /**
   * Counts one more listener until the function it returns is called. A listener takes its hold
   * before it starts the app: taken once started, a last other listener closing in between would
   * run the shutdown hooks, and it would serve an app whose resources they closed. The last
   * listener's release stops the app, which first waits up to `drainTimeoutMs` (what is left of
   * the listener's drain timeout; 10 s when it gives none) for the work still in flight outside its requests.
   */
  const holdListener = (): ((drainTimeoutMs?: number) => Promise<void>) => {
    openListeners++;
    let released = false;
    return async (drainTimeoutMs = DEFAULT_DRAIN_TIMEOUT_MS) => {
      if (released) return;
      released = true;
      // The shutdown hooks run once, after the last listener drained: the others still serve with them.
      if (--openListeners === 0) await lifecycle.stop(drainTimeoutMs);
    };
  };
  let fetchEntry: ((request: Request) => Promise<Response>) | undefined;

  /** A server of the app for one connection or request (see `App.createServer`), whatever it serves. */
  const makeServer: App['createServer'] = ({ era = 'legacy', authInfo, overrides, maxRequestBytes } = {}) => {
    if (maxRequestBytes !== undefined && !(maxRequestBytes > 0)) throw new ConfigError(`createServer: maxRequestBytes must be a positive number of bytes, got ${maxRequestBytes}.`);
    // Capabilities follow what the app serves when the connection opens (lists can grow at runtime).
    const capabilities = extensions.withCapabilities(surface.capabilities());
    // A plain literal: spreading here cost more than the SDK's own `new Server()` (a server is made per 2026-07-28 HTTP request).
    // Toolwright's own JSON Schema validator, so the SDK never makes its default one (see schemaValidatorProvider).
    const settings =
      era === 'modern' ? { instructions, capabilities, cacheHints, jsonSchemaValidator: schemaValidatorProvider } : { instructions, capabilities, jsonSchemaValidator: schemaValidatorProvider };
    const overriding = overrides && new Map(overrides);
    if (overrides) checkOverrides(overrides, app, 'createServer');
    // Only a connection with telemetry to record gets the traced server class: the others run untouched.
    const instruments = telemetry.instruments();
    // A 2025-era connection's plain tool calls skip the SDK's per-message work (see FastPaths);
    // a traced one keeps every request on the SDK's path, where its span is made.
    const intercept = era === 'legacy' && !overriding && !instruments ? fastPathsNow()?.intercept : undefined;
    // The tracing code is loaded by the first connection that records (an app without telemetry never runs it).
    const tracing = instruments && (require('../handlers/tracedServerClass') as typeof TracedServerClass);
    const server = new (tracing ? tracing.tracedServerClass(ToolwrightServer) : ToolwrightServer)({ caller: authInfo, intercept }, info, settings);
    const connection = surface.attach(server, capabilities, era, overriding, maxRequestBytes);
    extensions.attach(connection);
    registerToolHandlers(server, binding, connection);
    if (tracing) tracing.startTracing(server, instruments, connection, (kind, name) => (kind === 'tool' ? surface.catalog.tool(name) : surface.catalog.prompt(name)) !== undefined);
    return server;
  };

  const app: App = {
    name: options.name,
    version: options.version,
    registry,
    // Every transport of the app's own makes its servers here: the one place it refuses to serve what it cannot serve as declared.
    createServer(setup) {
      refuseServing(app, true);
      return makeServer(setup);
    },
    addNotifier: (notifier) => surface.connections.addNotifier(notifier),
    async connect(transport: Transport, context = {}) {
      if (context.overrides) checkOverrides(context.overrides, app, 'connect');
      const server = app.createServer(context);
      await server.connect(transport);
      return server;
    },
    start: lifecycle.start,
    // Rest arguments: `stop.length` stays 0, so the app's stop passed as a callback gets no wait it did not ask for (jest's
    // `afterEach(app.stop)` hands a `done` callback to a function that declares a parameter; `process.once('SIGTERM', app.stop)`
    // hands it the signal's name). Only a number is a drain time, checked; anything else means no wait.
    stop: async (...args: unknown[]) => lifecycle.stop(typeof args[0] === 'number' ? drainTimeoutOf('app.stop(drainTimeoutMs)', args[0], 0) : 0),
    openListener: () => holdListener(),
    // The overloads on App.listen give HTTP callers the HttpListener that serveHttp returns.
    listen: (async (listen: ListenOptions): Promise<Listener> => {
      // Before the start hooks run and before stdout is taken: a listener that could serve no client refuses at once.
      checkListenOptions(listen);
      refuseServing(app);
      if (listen.transport === 'stdio') {
        // Loaded on first use too: an HTTP or fetch server never runs the stdio transport. The start
        // hooks run once stdout is the protocol's: their console output goes to stderr too. The
        // listener holds the app before it starts it (see holdListener), and lets go if it fails to begin.
        return (require('../stdio/serveStdio') as typeof import('../stdio/serveStdio')).serveStdioAfter(lifecycle.start, app, listen, holdListener);
      }
      const release = holdListener();
      try {
        await lifecycle.start();
      } catch (error) {
        await release();
        throw error;
      }
      // Loaded on first use: the HTTP stack (the SDK transport, hono) costs stdio servers startup time and memory.
      return (require('../http/serveHttp') as typeof import('../http/serveHttp')).serveHttpHeld(app, listen, release);
    }) as App['listen'],
    fetch(request: Request) {
      // Loaded on first use, as the HTTP listener is: nothing in the fetch path needs node's modules, so edge runtimes can take it.
      fetchEntry ??= (require('../fetch/createAppFetch') as typeof import('../fetch/createAppFetch')).createAppFetch(app);
      return fetchEntry(request);
    },
    tools: control('tools'),
    resources: control('resources'),
    prompts: control('prompts'),
    toolAccess: (name: string) => surface.catalog.tool(name)?.access,
    toolParamHeaders: (name: string) => paramHeadersOf(surface.catalog.tool(name)),
    shareUsedStates: (store) => void surface.env.requestState.shareUsedStates(store),
    scopeHints: options.scopeHints === true,
    ...(options.oauth && { oauth: options.oauth }),
    ...(options.logger && { logger: options.logger }),
    mount: (...more) =>
      (require('../compose/mountLater') as typeof import('../compose/mountLater')).mountLater(more, surface, options.logger ?? stderrLogger('mount'), mounts, holds, phase, extensionIds),
    async add(...classes) {
      const more = await loadToolClasses(classes, options.cwd);
      surface.add({ tools: more, container, coerce: options.coerce, logger: options.logger, readViewFile });
    },
    notifyResourceUpdated: (uri: string) => surface.connections.resourceUpdated(uri),
    get inFlight() {
      return inFlight.count;
    },
    // As `stop`: `drain.length` stays 0, and only a number is a timeout (anything else: the default).
    drain: async (...args: unknown[]) => inFlight.drain(typeof args[0] === 'number' ? drainTimeoutOf('app.drain(timeoutMs)', args[0], DEFAULT_DRAIN_TIMEOUT_MS) : DEFAULT_DRAIN_TIMEOUT_MS),
  };
  Object.freeze(app);
  // Why the app may not serve its own clients (a `task: 'required'` tool without `tasks()`): checked where its own transports make a
  // server and where it listens, never at build or start (a parent that serves tasks() may mount it, and starts it).
  installServingRefusal(app, options.name, surface.catalog, extensionIds, serveLogger);
  registerMountSource(app, {
    catalog: surface.catalog,
    middleware: surface.env.middleware,
    toolTimeoutMs: surface.env.toolTimeoutMs,
    timeoutMs: surface.env.timeoutMs,
    limits: setLimits(options),
    scopes: surface.env.scopes,
    addNotifier: app.addNotifier,
  });
  // A refused app has none: a stateless HTTP call they answer would skip `createServer`, where the refusal is.
  installFastPaths(app, () => (servingRefusalOf(app) === undefined ? fastPathsNow() : undefined));
  return app;
}

/** How long a drain waits for the calls in flight when nobody says (a listener's `drainTimeoutMs`, `app.drain()`). */

/** The limits `options` set, for the apps that mount this one (what it leaves out, theirs fill in). */
function setLimits({ guardTimeoutMs, maxLogLength, maxUriLength }: AppOptions): MemberLimits {
  return stripUndefined({ guardTimeoutMs, maxLogLength, maxUriLength });
}

/** Starts the mounted apps (their hooks), in order; from here on, until the app stops, an app mounted later starts as it is mounted. */
async function startMounted(mounts: readonly Mount[], holds: MountedHold[], phase: { started: boolean }): Promise<void> {
  phase.started = true;
  if (mounts.length === 0) return;
  const { holdMounted } = require('../compose/holdMounted') as typeof import('../compose/holdMounted');
  // The mounts as they are now: one mounted while these start holds its own app.
  for (const m of [...mounts]) holds.push(await holdMounted(m.app));
}

/**
 * Lets go of the mounted apps, last mounted first (each stops unless another parent or its own
 * listener still serves it); from here on, an app mounted later starts when the app starts again.
 * A mounted app that stops waits for its own work in flight only for what is left of the
 * parent's drain time, `drainTimeoutMs` when the first is let go (0: the parent's stop does not wait).
 */
async function stopMounted(holds: MountedHold[], phase: { started: boolean; stops: number }, drainTimeoutMs: number): Promise<void> {
  phase.started = false;
  phase.stops++;
  const ends = Date.now() + drainTimeoutMs;
  for (const release of holds.splice(0).reverse()) await release(Math.max(0, ends - Date.now()));
}

/** The app's `middleware` must be functions or classes with `use(call, next)`. */
function checkMiddleware(middleware: AppOptions['middleware']): void {
  if (middleware === undefined) return;
  if (!Array.isArray(middleware)) throw new ConfigError('Toolwright: `middleware` must be an array of middleware: `middleware: [timing(), RateLimit]`.');
  middleware.forEach((m, i) => {
    if (typeof m !== 'function')
      throw new ConfigError(`Toolwright: middleware[${i}] is ${m === null ? 'null' : typeof m}, not a middleware. Pass a function (call, next) => ... or a class with a use(call, next) method.`);
  });
}

/** A timeout is a positive number of milliseconds: a timer given anything else fires at once, failing every call. */
function checkTimeout(key: 'timeoutMs' | 'toolTimeoutMs' | 'guardTimeoutMs', value: unknown): void {
  const problem = value === undefined ? undefined : timeoutProblem(value);
  if (!problem) return;
  const fix =
    key === 'guardTimeoutMs'
      ? `Give the milliseconds guards may take to decide: \`guardTimeoutMs: 2_000\`, or leave it out for the default ${DEFAULT_GUARD_TIMEOUT_MS} ms.`
      : `Give the milliseconds a call may take: \`${key}: 30_000\`, or leave it out for no limit.`;
  throw new ConfigError(`Toolwright: \`${key}\` is ${problem}. ${fix}`);
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Refuses overrides nothing in the app injects; loaded with the first overrides (tests), so a server's start never reads the check. */
const checkOverrides: typeof import('../compose/checkOverridesInjected').checkOverridesInjected = (overrides, app, entry) =>
  (require('../compose/checkOverridesInjected') as typeof import('../compose/checkOverridesInjected')).checkOverridesInjected(overrides, app, entry);
