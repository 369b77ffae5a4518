import { ToolwrightError, type ToolLogger } from '@toolwright/core';
import type { Client } from '../../sdk/proxyClient';
import { registerMountSource } from '../MountSource';
import { openUpstream } from './openUpstream';
import { ParkedCalls } from './ParkedCalls';
import type { ProxyRuntime } from './proxyDefinitions';
import type { ProxyOptions } from './ProxyOptions';
import type { ProxyState } from './ProxyState';
import { ALL_QUESTIONS } from './questionsOf';
import { UpstreamCatalog } from './UpstreamCatalog';
import { UpstreamFollower } from './UpstreamFollower';
import { UpstreamSessionPool } from './UpstreamSessionPool';

/** `listTimeoutMs`'s default: a listing is quick, and `proxyServer()` (an app's start) waits for one. */
const DEFAULT_LIST_TIMEOUT_MS = 30_000;

/**
 * An upstream MCP server as a member source of an app: mount it like an app,
 * `createApp({ mount: [{ app: await proxyServer({ url }), namespace: 'docs' }] })`.
 * Its own session lists the upstream and follows its list changes (reconnecting with
 * backoff when it drops); each downstream session gets an upstream session of its own
 * (callers without a session: one per caller), opened on its first call and closed with it.
 */
export class ProxiedServer {
  private readonly state: ProxyState;
  /** The upstream's lists, served to the mounting apps. */
  private readonly lists: UpstreamCatalog;
  /** The upstream sessions that serve downstream calls. */
  private readonly pool: UpstreamSessionPool;
  private readonly parked: ParkedCalls;
  /** What the proxy's own session follows: list changes and resource updates. */
  private follower: UpstreamFollower | undefined;
  private readonly runtime: ProxyRuntime;
  private ownSession: Client | undefined;
  private retry: NodeJS.Timeout | undefined;
  private sweep: NodeJS.Timeout | undefined;
  /** How many times `stop()` ran: a connection it began before a stop is closed, not served. */
  private stops = 0;

  /** @internal Made by `proxyServer()`. */
  constructor(
    private readonly options: ProxyOptions,
    private readonly logger: ToolLogger,
  ) {
    const state: ProxyState = { label: `upstream '${options.name ?? ('url' in options ? String(options.url) : options.command)}'`, stopped: false };
    const requestTimeoutMs = options.requestTimeoutMs ?? 600_000;
    const parked = new ParkedCalls(state, options.maxSessions ?? 100, requestTimeoutMs);
    const pool = new UpstreamSessionPool(options, state);
    this.state = state;
    this.parked = parked;
    this.pool = pool;
    this.runtime = {
      label: () => state.label,
      logger,
      requestTimeoutMs,
      listTimeoutMs: options.listTimeoutMs ?? DEFAULT_LIST_TIMEOUT_MS,
      run: async (ctx, request, send) => {
        const key = parked.keyOf(ctx, request);
        const waiting = key === undefined ? undefined : parked.take(key);
        if (waiting) return parked.settle(key, waiting.lease, waiting.resume(ctx) as Promise<never>);
        const lease = await pool.lease(ctx);
        return parked.settle(key, lease, lease.session.run(ctx, send, key === undefined ? undefined : parked.parking(key, lease)));
      },
      control: () => this.ownSession,
      wanted: (uri) => this.follower?.want(uri),
    };
    this.lists = new UpstreamCatalog(options.name, this.runtime, state);
    registerMountSource(this, {
      catalog: this.lists.catalog,
      middleware: [],
      scopes: { active: false },
      addNotifier: (notifier) => this.lists.addNotifier(notifier),
    });
  }

  /** `upstream '<name>'`: the name logs and messages give the upstream (`options.name`, else the name it reports). */
  get label(): string {
    return this.state.label;
  }

  /** Whether the proxy's own session is connected, the protocol revision it speaks, and how many upstream sessions serve downstream clients now. */
  get status(): { readonly connected: boolean; readonly protocolVersion: string | undefined; readonly sessions: number } {
    return { connected: this.ownSession !== undefined, protocolVersion: this.ownSession?.getNegotiatedProtocolVersion(), sessions: this.pool.size };
  }

  /** @internal Connects the proxy's own session and lists the upstream (`proxyServer()` does it). Throws when the upstream cannot be reached. */
  async connect(): Promise<void> {
    this.state.stopped = false;
    const stops = this.stops;
    // It declares every question a client can answer, so the upstream lists what it serves to a capable client.
    const client = await openUpstream(this.options, ALL_QUESTIONS, () => undefined, {
      elicit: () => Promise.reject(new ToolwrightError('the proxy runs no calls on this session')),
      sample: () => Promise.reject(new ToolwrightError('the proxy runs no calls on this session')),
      listRoots: async () => ({ roots: [] }),
      notification: () => undefined,
      changed: (kind) => this.lists.relist(kind),
      resourceUpdated: (uri) => this.lists.resourceUpdated(uri),
      tooLarge: (error) => this.logger.warn(`${this.label}: ${error.message}; raise the proxy's maxMessageBytes if that is expected`),
      closed: () => this.dropped(client),
    });
    // Stopped while it connected (a reconnect under way, a start racing a stop): nothing of it may stay open.
    if (this.stops !== stops) {
      await client.close().catch(() => undefined);
      throw new ToolwrightError(`${this.label} was stopped while the proxy connected to it`);
    }
    // A session this one replaces (a start() while a reconnect was under way, both connecting) is closed, not left open.
    const replaced = this.ownSession;
    this.ownSession = client;
    if (replaced !== undefined) void replaced.close().catch(() => undefined);
    this.follower?.close();
    this.follower = new UpstreamFollower(client, this.runtime.listTimeoutMs, this.logger, this.label, (kind) => this.lists.relist(kind, true));
    if (this.options.name === undefined) this.state.label = `upstream '${client.getServerVersion()?.name ?? 'upstream'}'`;
    await this.lists.refresh('tools');
    await this.lists.refresh('resources');
    await this.lists.refresh('prompts');
    // A 2026-07-28 upstream's list changes come on a stream the follower opens (and opens again when it drops).
    await client.autoOpenedSubscription?.close();
    // Stopped while it listed: stop() closed the session and the follower already.
    if (this.stops !== stops) return;
    this.follower.start();
    this.sweep ??= setInterval(() => this.pool.closeIdle(), Math.min(60_000, this.pool.idleMs)).unref();
  }

  /** For a mounting app's start: reconnects a proxy that was stopped. */
  async start(): Promise<void> {
    if (this.state.stopped || !this.ownSession) await this.connect();
  }

  /** Closes the proxy's session and every upstream session (child processes end). */
  async stop(): Promise<void> {
    this.state.stopped = true;
    this.stops++;
    clearTimeout(this.retry);
    clearInterval(this.sweep);
    this.sweep = undefined;
    const own = this.ownSession;
    this.ownSession = undefined;
    this.follower?.close();
    await own?.close().catch(() => undefined);
    await this.pool.close();
    this.parked.clear();
  }

  /**
   * The proxy's own session dropped: reconnect with backoff, then list everything again. The
   * loop ends with the proxy's next stop, also when a start follows it at once (that start
   * connects anew, and clears `stopped`: the count of stops is what tells).
   */
  private dropped(client: Client): void {
    if (this.ownSession !== client) return;
    this.ownSession = undefined;
    if (this.state.stopped) return;
    this.logger.warn(`${this.label} closed the connection; reconnecting`);
    const { initialDelayMs = 250, maxDelayMs = 30_000, factor = 2 } = this.options.reconnect ?? {};
    const stops = this.stops;
    const over = () => this.state.stopped || this.stops !== stops;
    let delay = initialDelayMs;
    const attempt = () => {
      if (over()) return;
      this.connect().then(
        () => this.logger.info(`${this.label}: reconnected`),
        (error: unknown) => {
          if (over()) return;
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
}
