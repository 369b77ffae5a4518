import type { HttpSession } from './HttpSession';
import { SessionLimitError } from './SessionLimitError';

/** What the store needs of a session: the node listener's `HttpSession` and the fetch handler's sessions are ones. */
export interface StoredSession {
  readonly id: string;
  /** Whose share of sessions it counts against (see `sessionOwnerOf`). */
  readonly owner: string;
  /** When it was last used (ms since epoch): see `touch`. */
  lastSeen: number;
  /** HTTP requests of this session still open: an idle sweep passes it by while any is. */
  open: number;
}

export interface SessionLimits {
  readonly idleTimeoutMs: number;
  /** Live sessions in all: past it a new one is refused (`SessionLimitError`), or with `whenFull: 'evict'` the least recently used goes. */
  readonly maxSessions: number;
  /** Live sessions of one owner (principal, or anonymous client address): opening one more closes that owner's least recently used. */
  readonly maxSessionsPerPrincipal: number;
}

/**
 * The live sessions of one endpoint. The maps are kept in least-recently-used order (a
 * touched session moves to the end), so the longest-idle session is always found first.
 * Each owner holds at most `maxSessionsPerPrincipal`: one more closes that owner's own
 * longest-idle session, never another owner's. The total is a last resort: a full store
 * refuses new sessions (`whenFull: 'refuse'`, the truth kept here), or, when it only
 * holds copies of sessions kept elsewhere (a cluster), drops the longest-idle copy.
 * Idle sessions are swept on a timer that never keeps the process alive.
 */
export class SessionStore<S extends StoredSession = HttpSession> {
  private readonly sessions = new Map<string, S>();
  private readonly byOwner = new Map<string, Map<string, S>>();
  private sweeper: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly limits: SessionLimits & { readonly whenFull: 'refuse' | 'evict' },
    private readonly closeSession: (session: S, reason: string) => Promise<void>,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** The session with this id, as it is (not marked as used); undefined if unknown or closed. */
  get(id: string): S | undefined {
    return this.sessions.get(id);
  }

  /** The session with this id, marked as just used; undefined if unknown or closed. Call once its caller is known to own it. */
  touch(id: string): S | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    const own = this.byOwner.get(session.owner);
    if (own) {
      own.delete(id);
      own.set(id, session);
    }
    session.lastSeen = Date.now();
    return session;
  }

  /**
   * Adds a session: first closes its owner's longest-idle sessions past the owner's share;
   * then, if the store is still full, refuses it with a `SessionLimitError` (or drops the
   * longest-idle copy, `whenFull: 'evict'`).
   */
  async add(session: S): Promise<void> {
    const own = this.byOwner.get(session.owner);
    while (own && own.size >= this.limits.maxSessionsPerPrincipal) {
      const victim = longestIdle(own.values());
      if (!victim) break;
      this.remove(victim.id);
      await this.closeSession(victim, 'evicted: its owner opened too many sessions');
    }
    while (this.sessions.size >= this.limits.maxSessions) {
      if (this.limits.whenFull === 'refuse') throw new SessionLimitError(this.limits.maxSessions);
      const victim = longestIdle(this.sessions.values());
      if (!victim) break;
      this.remove(victim.id);
      await this.closeSession(victim, 'evicted: too many local copies');
    }
    this.sessions.set(session.id, session);
    const mine = this.byOwner.get(session.owner) ?? new Map<string, S>();
    mine.set(session.id, session);
    this.byOwner.set(session.owner, mine);
    this.startSweeper();
  }

  /** Whether one more session may open without exceeding the total (its owner's share is made room for by `add`). */
  hasRoomFor(owner: string): boolean {
    if (this.sessions.size < this.limits.maxSessions) return true;
    return (this.byOwner.get(owner)?.size ?? 0) >= this.limits.maxSessionsPerPrincipal;
  }

  remove(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    const own = this.byOwner.get(session.owner);
    own?.delete(id);
    if (own?.size === 0) this.byOwner.delete(session.owner);
    if (this.sessions.size === 0) this.stopSweeper();
  }

  /** Closes every session with no open request that has been idle longer than the timeout. */
  async sweep(now = Date.now()): Promise<void> {
    const expired: S[] = [];
    for (const session of this.sessions.values()) {
      if (session.open === 0 && now - session.lastSeen >= this.limits.idleTimeoutMs) expired.push(session);
    }
    for (const session of expired) {
      this.remove(session.id);
      await this.closeSession(session, 'expired: idle timeout');
    }
    if (this.sessions.size === 0) this.stopSweeper();
  }

  /** The live sessions, least recently used first. */
  values(): IterableIterator<S> {
    return this.sessions.values();
  }

  async closeAll(reason: string): Promise<void> {
    this.stopSweeper();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    this.byOwner.clear();
    await Promise.all(all.map((s) => this.closeSession(s, reason)));
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    const every = Math.max(10, Math.min(60_000, Math.floor(this.limits.idleTimeoutMs / 2)));
    this.sweeper = setInterval(() => void this.sweep(), every);
    // node and Bun: never keep the process alive for it (Deno and workerd timers have no unref).
    (this.sweeper as { unref?: () => void }).unref?.();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}

/** Prefers a session with no open request; falls back to the least recently used. */
function longestIdle<S extends StoredSession>(sessions: Iterable<S>): S | undefined {
  let first: S | undefined;
  for (const session of sessions) {
    first ??= session;
    if (session.open === 0) return session;
  }
  return first;
}
