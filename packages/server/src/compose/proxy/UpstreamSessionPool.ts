import { ToolwrightError, type AuthInfo, type ToolContext } from '@toolwright/core';
import type { ClientCapabilities } from '../../sdk/proxyClient';
import { connectionOfContext } from '../../pipeline/contextConnection';
import type { Connection } from '../../pipeline/Connection';
import { ANONYMOUS, callerKey } from './callerKey';
import type { ProxyOptions } from './ProxyOptions';
import type { ProxyState } from './ProxyState';
import { UpstreamPoolFullError } from './UpstreamPoolFullError';
import { ALL_QUESTIONS, questionsOf } from './questionsOf';
import { UpstreamSession } from './UpstreamSession';

/** A session leased for one call; `release` gives it back when the call ends. */
export interface Lease {
  readonly session: UpstreamSession;
  release(): void;
}

/**
 * The upstream sessions that serve downstream calls, at most `maxSessions` (those being opened
 * count too): one per downstream connection, and idle ones kept per sessionless caller until
 * `idleSessionMs`.
 */
export class UpstreamSessionPool {
  private readonly byConnection = new WeakMap<object, Promise<UpstreamSession>>();
  /** The downstream connections whose close is followed (see `closeWith`), and those that closed. */
  private readonly hooked = new WeakSet<Connection>();
  private readonly closedConnections = new WeakSet<Connection>();
  /** Idle upstream sessions of callers without a connection of their own, by caller (`callerKey`). */
  private readonly idle = new Map<string, UpstreamSession[]>();
  private readonly sessions = new Set<UpstreamSession>();
  /** Upstream sessions being opened now (they count towards `maxSessions`). */
  private opening = 0;

  constructor(
    private readonly options: ProxyOptions,
    private readonly state: ProxyState,
  ) {}

  /** How many upstream sessions serve downstream clients now. */
  get size(): number {
    return this.sessions.size;
  }

  /** `idleSessionMs`: how long a sessionless caller's upstream session waits for the caller's next call. */
  get idleMs(): number {
    return this.options.idleSessionMs ?? 300_000;
  }

  /**
   * An upstream session for the downstream call `ctx`, leased until `release()`. A client with
   * a connection of its own (a 2025-era session, or a stdio or in-memory connection: one
   * client each) has one upstream session, opened on its first call and closed with the
   * connection. A caller without one (2026-07-28 and stateless HTTP requests) leases a session
   * that serves that call alone: an idle one of the same caller (`callerKey`), else a
   * new one; so whatever an upstream session sends outside a request (a 2025-era upstream's log
   * lines and questions) belongs to exactly one downstream call.
   */
  async lease(ctx: ToolContext): Promise<Lease> {
    // A call that ended before it got here (its connection closed, or it was cancelled, while a
    // guard or middleware of the parent ran): a session opened for it now would never be closed
    // with its connection (that closed already) and would hold a place of `maxSessions`.
    if (ctx.signal.aborted) throw new ToolwrightError(`the call ended before it reached the proxy; ${this.state.label} was not asked`);
    const connection = connectionOfContext(ctx);
    if (connection !== undefined && (ctx.session !== undefined || ctx.headers === undefined)) {
      const session = await this.connectionSession(ctx, connection);
      // The connection's caller as of this call: a client that refreshed its token mid-session has the credentials hook see the new one.
      session.caller = ctx.authInfo;
      return { session, release: () => undefined };
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

  /** Closes the sessionless callers' upstream sessions unused for `idleSessionMs`. */
  closeIdle(): void {
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

  /** Closes every upstream session (child processes end). */
  async close(): Promise<void> {
    await Promise.all([...this.sessions].map((s) => s.close()));
    this.sessions.clear();
    this.idle.clear();
  }

  /** A sessionless caller's call ended: its upstream session waits for the caller's next call (until `idleSessionMs`). */
  private giveBack(key: string, session: UpstreamSession): void {
    if (session.closed) return;
    // Anonymous callers cannot be told apart: a 2025-era upstream session keeps state, so it serves one call only.
    if (this.state.stopped || (key === ANONYMOUS && !session.stateless)) {
      this.sessions.delete(session);
      void session.close();
      return;
    }
    const idle = this.idle.get(key);
    if (idle) idle.push(session);
    else this.idle.set(key, [session]);
  }

  /**
   * The upstream session of a downstream connection: opened on its first call, closed when the
   * connection closes, also when it closes while the session is still being opened (else that
   * session would stay open, and count towards `maxSessions`, for good).
   */
  private connectionSession(ctx: ToolContext, connection: Connection): Promise<UpstreamSession> {
    if (this.closedConnections.has(connection)) return Promise.reject(new ToolwrightError(`the client's connection closed; ${this.state.label} was not asked`));
    const existing = this.byConnection.get(connection);
    if (existing) {
      return existing.then((session) => {
        if (!session.closed) return session;
        if (this.byConnection.get(connection) === existing) this.byConnection.delete(connection);
        return this.connectionSession(ctx, connection);
      });
    }
    this.closeWith(connection);
    const opening = this.open(ctx.authInfo, questionsOf(ctx.clientCapabilities), () => {
      if (this.byConnection.get(connection) === opening) this.byConnection.delete(connection);
    });
    this.byConnection.set(connection, opening);
    opening.catch(() => {
      if (this.byConnection.get(connection) === opening) this.byConnection.delete(connection);
    });
    return opening;
  }

  /** Closes the upstream session of `connection` (opened or being opened) when the connection closes; hooked once per connection. */
  private closeWith(connection: Connection): void {
    if (this.hooked.has(connection)) return;
    this.hooked.add(connection);
    const previous = connection.server.onclose;
    connection.server.onclose = () => {
      this.closedConnections.add(connection);
      const opening = this.byConnection.get(connection);
      this.byConnection.delete(connection);
      void opening?.then(
        (session) => {
          this.sessions.delete(session);
          void session.close();
        },
        () => undefined,
      );
      previous?.();
    };
  }

  /** Opens an upstream session (within `maxSessions`), forgotten when it ends. */
  private async open(caller: AuthInfo | undefined, capabilities: ClientCapabilities, onEnd?: () => void): Promise<UpstreamSession> {
    const limit = this.options.maxSessions ?? 100;
    if (this.sessions.size + this.opening >= limit) throw new UpstreamPoolFullError(this.state.label, limit);
    this.opening++;
    let session: UpstreamSession | undefined;
    try {
      session = await UpstreamSession.open(this.options, this.state.label, capabilities, caller, () => {
        if (session) this.sessions.delete(session);
        onEnd?.();
      });
    } finally {
      this.opening--;
    }
    this.sessions.add(session);
    return session;
  }
}
