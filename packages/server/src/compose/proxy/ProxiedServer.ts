import { ConfigError, ToolwrightError, type AuthInfo, type ToolContext, type ToolLogger } from '@toolwright/core';
import type { CompiledRegistry } from '@toolwright/core/internal';
import type { Client, ClientCapabilities } from '../../sdk/proxyClient';
import { Catalog, type CatalogParts, type ListKind } from '../../surface/Catalog';
import type { ChangeNotifier } from '../../surface/Connections';
import { connectionOfContext } from '../../pipeline/contextConnection';
import type { Connection } from '../../pipeline/Connection';
import { registerMountSource } from '../MountSource';
import { openUpstream } from './openUpstream';
import { listWithin } from './listWithin';
import { proxyDefinitions, type ProxyRuntime, type UpstreamLists } from './proxyDefinitions';
import type { ProxyOptions } from './ProxyOptions';
import { UpstreamSession, type Parking } from './UpstreamSession';
import { MAX_FOLLOWED, UpstreamFollower } from './UpstreamFollower';

/** `listTimeoutMs`'s default: a listing is quick, and `proxyServer()` (an app's start) waits for one. */
const DEFAULT_LIST_TIMEOUT_MS = 30_000;
const EMPTY: CatalogParts = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
const ALL_QUESTIONS: ClientCapabilities = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/**
 * An upstream MCP server as a member source of an app: mount it like an app,
 * `createApp({ mount: [{ app: await proxyServer({ url }), namespace: 'docs' }] })`.
 * Its own session lists the upstream and follows its list changes (reconnecting with
 * backoff when it drops); each downstream session gets an upstream session of its own
 * (callers without a session: one per caller), opened on its first call and closed with it.
 */
export class ProxiedServer {
  private readonly catalog: Catalog;
  private readonly notifiers = new Set<ChangeNotifier>();
  private readonly byConnection = new WeakMap<object, Promise<UpstreamSession>>();
  /** Idle upstream sessions of callers without a connection of their own, by caller (client ID and subject). */
  private readonly idle = new Map<string, UpstreamSession[]>();
  private readonly sessions = new Set<UpstreamSession>();
  /** Upstream sessions being opened now (they count towards `maxSessions`). */
  private opening = 0;
  /** Calls of 2025-era upstream sessions waiting for a 2026-07-28 client's answer, by caller and request. */
  private readonly parked = new Map<string, ParkedCall>();
  private readonly connectionIds = new WeakMap<Connection, number>();
  private connections = 0;
  /** What the proxy's own session follows: list changes and resource updates. */
  private follower: UpstreamFollower | undefined;
  private readonly target: new () => object;
  private readonly runtime: ProxyRuntime;
  private ownSession: Client | undefined;
  private lists: UpstreamLists = { tools: [], resources: [], resourceTemplates: [], prompts: [] };
  private served: CatalogParts = EMPTY;
  private stopped = false;
  /** The lists being fetched again now, each marked when another change came meanwhile. */
  private readonly relisting = new Map<ListKind, { again: boolean }>();
  private retry: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  private quiet = false;
  private name: string;

  /** @internal Made by `proxyServer()`. */
  constructor(
    private readonly options: ProxyOptions,
    private readonly logger: ToolLogger,
  ) {
    this.name = `upstream '${options.name ?? ('url' in options ? String(options.url) : options.command)}'`;
    this.catalog = new Catalog(EMPTY as CompiledRegistry, undefined, (kind) => this.announce(kind));
    const name = `Proxy(${options.name ?? 'upstream'})`;
    this.target = { [name]: class {} }[name];
    this.runtime = {
      label: () => this.label,
      logger,
      requestTimeoutMs: options.requestTimeoutMs ?? 600_000,
      listTimeoutMs: options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS,
      run: async (ctx, request, send) => {
        const key = this.parkKey(ctx, request);
        const parked = key === undefined ? undefined : this.parked.get(key);
        if (parked) {
          this.parked.delete(key!);
          clearTimeout(parked.timer);
          return this.settle(key, parked.lease, parked.resume(ctx) as Promise<never>);
        }
        const lease = await this.lease(ctx);
        return this.settle(key, lease, lease.session.run(ctx, send, key === undefined ? undefined : this.parking(key, lease)));
      },
      control: () => this.ownSession,
      wanted: (uri) => this.follower?.want(uri),
    };
    registerMountSource(this, {
      catalog: this.catalog,
      middleware: [],
      scopes: { active: false },
      addNotifier: (notifier) => {
        this.notifiers.add(notifier);
        return () => void this.notifiers.delete(notifier);
      },
    });
  }

  /** `upstream '<name>'`: the name logs and messages give the upstream (`options.name`, else the name it reports). */
  get label(): string {
    return this.name;
  }

  /** Whether the proxy's own session is connected, the protocol revision it speaks, and how many upstream sessions serve downstream clients now. */
  get status(): { readonly connected: boolean; readonly protocolVersion: string | undefined; readonly sessions: number } {
    return { connected: this.ownSession !== undefined, protocolVersion: this.ownSession?.getNegotiatedProtocolVersion(), sessions: this.sessions.size };
  }

  /** @internal Connects the proxy's own session and lists the upstream (`proxyServer()` does it). Throws when the upstream cannot be reached. */
  async connect(): Promise<void> {
    this.stopped = false;
    // It declares every question a client can answer, so the upstream lists what it serves to a capable client.
    const client = await openUpstream(this.options, ALL_QUESTIONS, () => undefined, {
      elicit: () => Promise.reject(new ToolwrightError('the proxy runs no calls on this session')),
      sample: () => Promise.reject(new ToolwrightError('the proxy runs no calls on this session')),
      listRoots: async () => ({ roots: [] }),
      notification: () => undefined,
      changed: (kind) => this.relist(kind),
      resourceUpdated: (uri) => this.notifiers.forEach((n) => n.resourceUpdated(uri)),
      tooLarge: (error) => this.logger.warn(`${this.label}: ${error.message}; raise the proxy's maxMessageBytes if that is expected`),
      closed: () => this.dropped(client),
    });
    this.ownSession = client;
    this.follower?.close();
    this.follower = new UpstreamFollower(client, this.runtime.listTimeoutMs, this.logger, this.label);
    if (this.options.name === undefined) this.name = `upstream '${client.getServerVersion()?.name ?? 'upstream'}'`;
    await this.refresh('tools');
    await this.refresh('resources');
    await this.refresh('prompts');
    // A 2026-07-28 upstream's list changes come on a stream the follower opens (and opens again when it drops).
    await client.autoOpenedSubscription?.close();
    this.follower.start();
    this.sweep ??= setInterval(() => this.closeIdle(), Math.min(60_000, this.idleMs)).unref();
  }

  /** For a mounting app's start: reconnects a proxy that was stopped. */
  async start(): Promise<void> {
    if (this.stopped || !this.ownSession) await this.connect();
  }

  /** Closes the proxy's session and every upstream session (child processes end). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    clearInterval(this.sweep);
    this.sweep = undefined;
    const own = this.ownSession;
    this.ownSession = undefined;
    this.follower?.close();
    await own?.close().catch(() => undefined);
    await Promise.all([...this.sessions].map((s) => s.close()));
    this.sessions.clear();
    this.idle.clear();
    for (const parked of this.parked.values()) clearTimeout(parked.timer);
    this.parked.clear();
  }

  private get idleMs(): number {
    return this.options.idleSessionMs ?? 300_000;
  }

  /**
   * Lists `kind` again after the upstream said it changed: one listing of a list at a time, and
   * one more after it when another change came meanwhile, so a slow answer to an older listing
   * never replaces a newer one, and a flood of changes costs one listing in flight.
   */
  private relist(kind: ListKind): void {
    const running = this.relisting.get(kind);
    if (running) return void (running.again = true);
    const entry = { again: false };
    this.relisting.set(kind, entry);
    void (async () => {
      do {
        entry.again = false;
        await this.refresh(kind).catch((error: unknown) => this.logger.warn(`${this.label}: relisting ${kind} failed: ${(error as Error).message}`));
      } while (entry.again && !this.stopped);
      this.relisting.delete(kind);
    })();
  }

  /** Fetches one of the upstream's lists again and serves it in place of the old one. */
  private async refresh(kind: ListKind): Promise<void> {
    const client = this.ownSession;
    if (!client) return;
    const caps = client.getServerCapabilities() ?? {};
    const ms = this.runtime.listTimeoutMs;
    if (kind === 'tools') this.lists = { ...this.lists, tools: caps.tools ? (await listWithin('tools/list', ms, (o) => client.listTools(undefined, o))).tools : [] };
    if (kind === 'prompts') this.lists = { ...this.lists, prompts: caps.prompts ? (await listWithin('prompts/list', ms, (o) => client.listPrompts(undefined, o))).prompts : [] };
    if (kind === 'resources') {
      const resources = caps.resources ? (await listWithin('resources/list', ms, (o) => client.listResources(undefined, o))).resources : [];
      const resourceTemplates = caps.resources ? (await listWithin('resources/templates/list', ms, (o) => client.listResourceTemplates(undefined, o))).resourceTemplates : [];
      this.lists = { ...this.lists, resources, resourceTemplates };
    }
    this.replace(kind, proxyDefinitions(this.lists, this.target, this.runtime));
    if (kind === 'resources') for (const r of this.lists.resources.slice(0, MAX_FOLLOWED)) this.follower?.want(r.uri);
  }

  /** Swaps one list's definitions in the catalog and announces the change once. */
  private replace(kind: ListKind, next: CatalogParts): void {
    const old = this.served;
    this.quiet = true;
    try {
      if (kind === 'tools') old.tools.forEach((t) => this.catalog.remove('tools', t.name));
      if (kind === 'prompts') old.prompts.forEach((p) => this.catalog.remove('prompts', p.name));
      if (kind === 'resources') [...old.resources.map((r) => r.uri), ...old.resourceTemplates.map((t) => t.uriTemplate)].forEach((k) => this.catalog.remove('resources', k));
      const part: CatalogParts = {
        tools: kind === 'tools' ? next.tools : [],
        prompts: kind === 'prompts' ? next.prompts : [],
        resources: kind === 'resources' ? next.resources : [],
        resourceTemplates: kind === 'resources' ? next.resourceTemplates : [],
      };
      this.catalog.addRegistry(part, false);
      this.served = {
        tools: kind === 'tools' ? next.tools : old.tools,
        prompts: kind === 'prompts' ? next.prompts : old.prompts,
        resources: kind === 'resources' ? next.resources : old.resources,
        resourceTemplates: kind === 'resources' ? next.resourceTemplates : old.resourceTemplates,
      };
    } finally {
      this.quiet = false;
    }
    this.announce(kind);
  }

  private announce(kind: ListKind): void {
    if (this.quiet) return;
    for (const n of this.notifiers) {
      if (kind === 'tools') n.toolsChanged();
      else if (kind === 'prompts') n.promptsChanged();
      else n.resourcesChanged();
    }
  }

  /** The proxy's own session dropped: reconnect with backoff, then list everything again. */
  private dropped(client: Client): void {
    if (this.ownSession !== client) return;
    this.ownSession = undefined;
    if (this.stopped) return;
    this.logger.warn(`${this.label} closed the connection; reconnecting`);
    const { initialDelayMs = 250, maxDelayMs = 30_000, factor = 2 } = this.options.reconnect ?? {};
    let delay = initialDelayMs;
    const attempt = () => {
      if (this.stopped) return;
      this.connect().then(
        () => this.logger.info(`${this.label}: reconnected`),
        (error: unknown) => {
          this.logger.warn(`${this.label}: reconnect failed (${(error as Error).message}); next try in ${delay} ms`);
          schedule();
        },
      );
    };
    const schedule = () => {
      const wait = delay * (0.5 + Math.random() / 2);
      delay = Math.min(maxDelayMs, delay * factor);
      this.retry = setTimeout(attempt, wait);
      this.retry.unref();
    };
    schedule();
  }

  /**
   * An upstream session for the downstream call `ctx`, leased until `release()`. A client with
   * a connection of its own (a 2025-era session, or a stdio or in-memory connection: one
   * client each) has one upstream session, opened on its first call and closed with the
   * connection. A caller without one (2026-07-28 and stateless HTTP requests) leases a session
   * that serves that call alone: an idle one of the same caller (client ID and subject), else a
   * new one; so whatever an upstream session sends outside a request (a 2025-era upstream's log
   * lines and questions) belongs to exactly one downstream call.
   */
  private async lease(ctx: ToolContext): Promise<Lease> {
    const connection = connectionOfContext(ctx);
    if (connection !== undefined && (ctx.session !== undefined || ctx.headers === undefined)) {
      return { session: await this.connectionSession(ctx, connection), release: () => undefined };
    }
    const key = callerKey(ctx.authInfo);
    const idle = this.idle.get(key);
    while (idle && idle.length > 0) {
      const session = idle.pop()!;
      if (session.closed) continue;
      session.caller = ctx.authInfo;
      return { session, release: () => this.giveBack(key, session) };
    }
    this.idle.delete(key);
    const session = await this.open(ctx.authInfo, ALL_QUESTIONS);
    return { session, release: () => this.giveBack(key, session) };
  }

  /**
   * Who may resume a parked call of `request`: a 2026-07-28 caller with an identity (client ID
   * and subject), or the one client of a stdio or in-memory connection. An anonymous HTTP caller
   * cannot be told from another, so its calls are run again on the retry instead.
   */
  private parkKey(ctx: ToolContext, request: string): string | undefined {
    if (ctx.era !== 'modern') return undefined;
    if (ctx.authInfo) return `${callerKey(ctx.authInfo)}\n${request}`;
    const connection = connectionOfContext(ctx);
    if (connection === undefined || ctx.headers !== undefined) return undefined;
    let id = this.connectionIds.get(connection);
    if (id === undefined) this.connectionIds.set(connection, (id = ++this.connections));
    return `connection ${id}\n${request}`;
  }

  /** Keeps a call waiting for its client's answer under `key` (one per key, at most `maxSessions`), cancelled after `requestTimeoutMs`. */
  private parking<R>(key: string, lease: Lease): Parking<R> {
    return {
      park: (resume, abandon) => {
        if (this.stopped || this.parked.has(key) || this.parked.size >= (this.options.maxSessions ?? 100)) return false;
        const entry: ParkedCall = {
          lease,
          resume: resume as ParkedCall['resume'],
          timer: setTimeout(() => {
            if (this.parked.get(key) !== entry) return;
            this.parked.delete(key);
            abandon();
            lease.release();
          }, this.runtime.requestTimeoutMs),
        };
        entry.timer.unref();
        this.parked.set(key, entry);
        return true;
      },
    };
  }

  /** Gives the lease back when the call ended, not when it was parked. */
  private async settle<R>(key: string | undefined, lease: Lease, running: Promise<R>): Promise<R> {
    try {
      return await running;
    } finally {
      if (key === undefined || this.parked.get(key)?.lease !== lease) lease.release();
    }
  }

  /** A sessionless caller's call ended: its upstream session waits for the caller's next call (until `idleSessionMs`). */
  private giveBack(key: string, session: UpstreamSession): void {
    if (session.closed) return;
    // Anonymous callers cannot be told apart: a 2025-era upstream session keeps state, so it serves one call only.
    if (this.stopped || (key === ANONYMOUS && !session.stateless)) {
      this.sessions.delete(session);
      void session.close();
      return;
    }
    const idle = this.idle.get(key);
    if (idle) idle.push(session);
    else this.idle.set(key, [session]);
  }

  /** The upstream session of a downstream connection: opened on its first call, closed when the connection closes. */
  private connectionSession(ctx: ToolContext, connection: Connection): Promise<UpstreamSession> {
    const existing = this.byConnection.get(connection);
    if (existing) {
      return existing.then((session) => {
        if (!session.closed) return session;
        if (this.byConnection.get(connection) === existing) this.byConnection.delete(connection);
        return this.connectionSession(ctx, connection);
      });
    }
    const opening = this.open(ctx.authInfo, questionsOf(ctx.clientCapabilities), () => {
      if (this.byConnection.get(connection) === opening) this.byConnection.delete(connection);
    }).then((opened) => {
      const previous = connection.server.onclose;
      connection.server.onclose = () => {
        this.sessions.delete(opened);
        void opened.close();
        previous?.();
      };
      return opened;
    });
    this.byConnection.set(connection, opening);
    opening.catch(() => {
      if (this.byConnection.get(connection) === opening) this.byConnection.delete(connection);
    });
    return opening;
  }

  /** Opens an upstream session (within `maxSessions`), forgotten when it ends. */
  private async open(caller: AuthInfo | undefined, capabilities: ClientCapabilities, onEnd?: () => void): Promise<UpstreamSession> {
    if (this.sessions.size + this.opening >= (this.options.maxSessions ?? 100)) {
      throw new ToolwrightError(`${this.label} already serves ${this.sessions.size} sessions (maxSessions); try again later`);
    }
    this.opening++;
    let session: UpstreamSession | undefined;
    try {
      session = await UpstreamSession.open(this.options, this.label, capabilities, caller, () => {
        if (session) this.sessions.delete(session);
        onEnd?.();
      });
    } finally {
      this.opening--;
    }
    this.sessions.add(session);
    return session;
  }

  /** Closes the sessionless callers' upstream sessions unused for `idleSessionMs`. */
  private closeIdle(): void {
    const now = Date.now();
    for (const [key, idle] of this.idle) {
      const keep = idle.filter((session) => {
        if (!session.closed && now - session.lastUsed < this.idleMs) return true;
        this.sessions.delete(session);
        void session.close();
        return false;
      });
      if (keep.length > 0) this.idle.set(key, keep);
      else this.idle.delete(key);
    }
  }
}

/** A call parked until its client's retry. */
interface ParkedCall {
  readonly lease: Lease;
  readonly resume: (ctx: ToolContext) => Promise<unknown>;
  readonly timer: NodeJS.Timeout;
}

/** A session leased for one call; `release` gives it back when the call ends. */
interface Lease {
  readonly session: UpstreamSession;
  release(): void;
}

const ANONYMOUS = 'anonymous';

/** Callers share an upstream session only with themselves: same client and subject. */
function callerKey(auth: AuthInfo | undefined): string {
  if (!auth) return ANONYMOUS;
  const sub = auth.extra?.sub;
  return JSON.stringify([auth.clientId, typeof sub === 'string' ? sub : '']);
}

/** The questions a downstream client can answer, declared to the upstream as its own. */
function questionsOf(capabilities: Readonly<Record<string, unknown>>): ClientCapabilities {
  const out: Record<string, unknown> = {};
  for (const key of ['elicitation', 'sampling', 'roots']) if (Object.hasOwn(capabilities, key)) out[key] = capabilities[key];
  return out as ClientCapabilities;
}

/** Checks `proxyServer()`'s options; throws a `ConfigError` that says what to fix. */
export function checkProxyOptions(options: ProxyOptions): void {
  if (typeof options !== 'object' || options === null) throw new ConfigError("Toolwright: proxyServer() takes { url } or { command, args }: proxyServer({ url: 'https://mcp.example.com/mcp' }).");
  const hasUrl = 'url' in options && options.url !== undefined;
  const hasCommand = 'command' in options && options.command !== undefined;
  if (hasUrl === hasCommand) throw new ConfigError('Toolwright: proxyServer() needs exactly one of `url` (a Streamable HTTP endpoint) and `command` (a server to start over stdio).');
  if (hasUrl) {
    let url: URL;
    try {
      url = new URL((options as { url: string | URL }).url);
    } catch {
      throw new ConfigError(`Toolwright: proxyServer()'s url ${JSON.stringify(String((options as { url: unknown }).url))} is not an absolute URL. Give one such as 'https://mcp.example.com/mcp'.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`Toolwright: proxyServer()'s url must be http: or https:, not ${url.protocol}.`);
  } else if (typeof (options as { command: unknown }).command !== 'string' || (options as { command: string }).command === '') {
    throw new ConfigError("Toolwright: proxyServer()'s `command` must be a non-empty string (the program to start), with its arguments in `args`.");
  }
  for (const key of ['requestTimeoutMs', 'listTimeoutMs', 'maxMessageBytes', 'maxSessions', 'idleSessionMs', 'maxLogLinesPerSecond'] as const) {
    const value: unknown = options[key];
    if (value !== undefined && (!Number.isInteger(value) || (value as number) <= 0)) {
      throw new ConfigError(`Toolwright: proxyServer()'s ${key} is ${typeof value === 'string' ? JSON.stringify(value) : String(value)}. Give a positive integer.`);
    }
  }
  if (options.protocol !== undefined && !['auto', '2025-11-25', '2026-07-28'].includes(options.protocol)) {
    throw new ConfigError(`Toolwright: proxyServer()'s protocol is ${JSON.stringify(options.protocol)}. Give 'auto', '2025-11-25' or '2026-07-28'.`);
  }
}
