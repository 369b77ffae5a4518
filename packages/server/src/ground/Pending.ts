/**
 * The one way Toolwright waits for unfinished work on shutdown: what is still pending (the
 * app's running calls, the requests a stdio connection has read but not answered, the HTTP
 * POSTs still being answered), and a wait until none is, with a time limit. Every listener
 * drains through it; the keys say what to abandon when the wait runs out.
 */
export class Pending<K = unknown> {
  private readonly items = new Set<K>();
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.items.size;
  }

  add(key: K): void {
    this.items.add(key);
  }

  /** Settles `key`; true if it was pending. */
  delete(key: K): boolean {
    if (!this.items.delete(key)) return false;
    // No array is made unless someone waits: a settled call (every tools/call) comes through here.
    if (this.items.size === 0 && this.waiters.length > 0) {
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    }
    return true;
  }

  /** Counts `work` until it settles; returns `work` itself. */
  track<T extends K & Promise<unknown>>(work: T): T {
    this.add(work);
    const settle = () => void this.delete(work);
    work.then(settle, settle);
    return work;
  }

  /** What is still pending, in the order it came. */
  keys(): IterableIterator<K> {
    return this.items.values();
  }

  /** Resolves when nothing is pending, or after `timeoutMs`; true if everything finished. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.items.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
