import { OAuthStoreFullError } from './OAuthStoreFullError';
import type { OAuthStore } from './OAuthStore';
import { storeEntryKind, type StoreEntryKind } from './storeEntryKinds';

/** The share of `maxEntries` that entries anyone can make may take: clients (registrations, client documents, cached jwks_uri keys), pending sign-ins. */
const SHARES: ReadonlyMap<StoreEntryKind, number> = new Map([
  ['client', 0.5],
  ['signIn', 0.25],
]);

const WHAT: ReadonlyMap<StoreEntryKind, string> = new Map([
  ['client', 'clients (registrations, client ID metadata documents and cached jwks_uri keys)'],
  ['signIn', 'pending sign-ins'],
  ['grant', 'grants and tokens'],
]);

interface Entry {
  value: string;
  expiresAt: number;
  kind: StoreEntryKind;
}

/**
 * The default store: this process's memory. Fine for one instance; state is lost on
 * restart (clients sign in again) and not shared between instances. Expired entries go on
 * read and in a sweep every 1000 writes. It holds at most `maxEntries` live entries (default
 * 100 000), of which registered clients and client documents at most half and pending
 * sign-ins at most a quarter: registrations or sign-ins flooding in never take the room the
 * grants and refresh tokens of clients already signed in need. A new entry past its bound
 * throws `OAuthStoreFullError` (the server answers 503 with `Retry-After`); overwriting or
 * removing one never throws.
 */
export class MemoryOAuthStore implements OAuthStore {
  private readonly entries = new Map<string, Entry>();
  private readonly counts = new Map<StoreEntryKind, number>();
  private writes = 0;

  constructor(private readonly options: { maxEntries?: number; now?: () => number } = {}) {}

  /** How many live entries it holds (expired ones are dropped first). */
  get size(): number {
    this.sweep();
    return this.entries.size;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async get(key: string): Promise<string | undefined> {
    return this.live(key);
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.write(key, value, ttlSeconds);
  }

  /** Checks and writes in one synchronous step: of two calls racing for one key, only one sees it absent. */
  async add(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    if (this.live(key) !== undefined) return false;
    this.write(key, value, ttlSeconds);
    return true;
  }

  async delete(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) this.remove(key, entry);
  }

  /** The value of `key` unless it expired (an expired entry is dropped). */
  private live(key: string): string | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.remove(key, entry);
      return undefined;
    }
    return entry.value;
  }

  private write(key: string, value: string, ttlSeconds: number): void {
    if (++this.writes % 1000 === 0) this.sweep();
    const expiresAt = this.now() + ttlSeconds * 1000;
    const held = this.entries.get(key);
    if (held) {
      held.value = value;
      held.expiresAt = expiresAt;
      return;
    }
    const kind = storeEntryKind(key);
    if (this.blocked(kind)) {
      this.sweep();
      const blocking = this.blocked(kind);
      if (blocking) throw this.fullError(kind, blocking);
    }
    this.entries.set(key, { value, expiresAt, kind });
    this.counts.set(kind, (this.counts.get(kind) ?? 0) + 1);
  }

  /** What keeps a new entry of `kind` out: every entry (the store's bound), or its kind's share; undefined when it fits. */
  private blocked(kind: StoreEntryKind): { bound: number; of: StoreEntryKind | 'all' } | undefined {
    const max = this.maxEntries();
    if (this.entries.size >= max) return { bound: max, of: 'all' };
    const share = SHARES.get(kind);
    if (share === undefined) return undefined;
    const bound = Math.max(1, Math.floor(max * share));
    return (this.counts.get(kind) ?? 0) >= bound ? { bound, of: kind } : undefined;
  }

  private fullError(kind: StoreEntryKind, blocking: { bound: number; of: StoreEntryKind | 'all' }): OAuthStoreFullError {
    const now = this.now();
    let first = Infinity;
    for (const entry of this.entries.values()) if ((blocking.of === 'all' || entry.kind === blocking.of) && entry.expiresAt < first) first = entry.expiresAt;
    const retryAfterSeconds = Math.max(1, Math.ceil((first - now) / 1000));
    const full = blocking.of === 'all' ? `it holds maxEntries (${blocking.bound}) live entries` : `they already hold ${blocking.bound} entries, their share of maxEntries (${this.maxEntries()})`;
    return new OAuthStoreFullError(
      `Toolwright oauth: MemoryOAuthStore has no room for more ${WHAT.get(kind)}: ${full}; the first of them expires in ${retryAfterSeconds} s. What is stored keeps working. ` +
        'If callers you do not know fill it, tell them apart (behind a reverse proxy, set rateLimit.clientAddressOf, or every caller has the proxy address); else raise maxEntries or use a shared store.',
      retryAfterSeconds,
    );
  }

  private maxEntries(): number {
    return this.options.maxEntries ?? 100_000;
  }

  private remove(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.counts.set(entry.kind, (this.counts.get(entry.kind) ?? 1) - 1);
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.remove(key, entry);
  }
}
