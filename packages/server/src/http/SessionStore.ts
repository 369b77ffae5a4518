import type { HttpSession } from './HttpSession';

export interface SessionLimits {
  readonly idleTimeoutMs: number;
  readonly maxSessions: number;
}

/**
 * The live sessions of one endpoint. The map is kept in least-recently-used order (a
 * touched session moves to the end), so the longest-idle session is always found first.
 * Idle sessions are swept on a timer that never keeps the process alive.
 */
export class SessionStore {
  private readonly sessions = new Map<string, HttpSession>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: SessionLimits,
    private readonly closeSession: (session: HttpSession, reason: string) => Promise<void>,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** The session with this id, marked as just used; undefined if unknown or closed. */
  touch(id: string): HttpSession | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    this.sessions.delete(id);
    this.sessions.set(id, session);
    session.lastSeen = Date.now();
    return session;
  }

  /** Adds a session, first closing the longest-idle one if the store is full. */
  async add(session: HttpSession): Promise<void> {
    while (this.sessions.size >= this.limits.maxSessions) {
      const victim = this.longestIdle();
      if (!victim) break;
      this.sessions.delete(victim.id);
      await this.closeSession(victim, 'evicted: too many sessions');
    }
    this.sessions.set(session.id, session);
    this.startSweeper();
  }

  remove(id: string): void {
    this.sessions.delete(id);
    if (this.sessions.size === 0) this.stopSweeper();
  }

  /** Closes every session with no open request that has been idle longer than the timeout. */
  async sweep(now = Date.now()): Promise<void> {
    const expired: HttpSession[] = [];
    for (const session of this.sessions.values()) {
      if (session.open === 0 && now - session.lastSeen >= this.limits.idleTimeoutMs) expired.push(session);
    }
    for (const session of expired) {
      this.sessions.delete(session.id);
      await this.closeSession(session, 'expired: idle timeout');
    }
    if (this.sessions.size === 0) this.stopSweeper();
  }

  /** The live sessions, least recently used first. */
  values(): IterableIterator<HttpSession> {
    return this.sessions.values();
  }

  async closeAll(reason: string): Promise<void> {
    this.stopSweeper();
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => this.closeSession(s, reason)));
  }

  /** Prefers a session with no open request; falls back to the least recently used. */
  private longestIdle(): HttpSession | undefined {
    let first: HttpSession | undefined;
    for (const session of this.sessions.values()) {
      first ??= session;
      if (session.open === 0) return session;
    }
    return first;
  }

  private startSweeper(): void {
    if (this.sweeper) return;
    const every = Math.max(10, Math.min(60_000, Math.floor(this.limits.idleTimeoutMs / 2)));
    this.sweeper = setInterval(() => void this.sweep(), every);
    this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
