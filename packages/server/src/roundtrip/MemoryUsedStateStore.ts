import type { UsedStateStore } from './RequestStateCodec';

/**
 * The default `UsedStateStore`, for one process. A state this store issued (`issue`) is remembered
 * from its issue until it is claimed or expires, so a server whose clients answer their rounds
 * holds only the rounds in flight, however many it has served. A state issued elsewhere (another
 * instance given the same keys) is remembered from its claim until it expires.
 */
export class MemoryUsedStateStore implements UsedStateStore {
  /**
   * What every id this store issues starts with: random, so no id issued elsewhere does. Made
   * with the first id: reading the global `crypto` loads Node's Web Crypto, which a server's
   * start should not pay for (about 0.4 MB of heap).
   */
  private prefix: string | undefined;
  private issued = 0;
  /** Ids this store issued that nobody has claimed yet, with their expiry. */
  private readonly open = new Map<string, number>();
  /** Ids issued elsewhere and claimed here, with their expiry. */
  private readonly claimedForeign = new Map<string, number>();
  private nextSweep = 0;

  /** A new id, accepted by one `claim` until `expiresAt` (ms since the epoch). */
  issue(expiresAt: number): string {
    this.sweep();
    this.prefix ??= `${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString('base64url')}.`;
    const id = this.prefix + (this.issued++).toString(36);
    this.open.set(id, expiresAt);
    return id;
  }

  /** Whether `id` is one this store issued (claimed here once, it is then refused by every instance that has not seen it claimed). */
  issuedHere(id: string): boolean {
    return this.prefix !== undefined && id.startsWith(this.prefix);
  }

  claim(id: string, expiresAt: number): boolean {
    this.sweep();
    if (this.prefix !== undefined && id.startsWith(this.prefix)) return this.open.delete(id);
    if (this.claimedForeign.has(id)) return false;
    this.claimedForeign.set(id, expiresAt);
    return true;
  }

  /** How many ids it holds (issued and not claimed, or claimed from elsewhere), expired ones included until the next sweep. */
  get size(): number {
    return this.open.size + this.claimedForeign.size;
  }

  /** At most once a second: forgets the ids that have expired. */
  private sweep(): void {
    const now = Date.now();
    if (now < this.nextSweep) return;
    this.nextSweep = now + 1000;
    dropExpired(this.open, now);
    dropExpired(this.claimedForeign, now);
  }
}

/**
 * Deletes the expired entries at the head of `expiries`. Entries come in about the order they expire
 * (one ttl per app), so it stops at the first one still valid: one that came in early with a later
 * expiry holds the ones behind it a little longer, never shorter than their own expiry.
 */
function dropExpired(expiries: Map<string, number>, now: number): void {
  for (const [id, expiresAt] of expiries) {
    if (expiresAt > now) return;
    expiries.delete(id);
  }
}
