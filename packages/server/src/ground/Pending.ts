import { PendingCount } from './PendingCount';

/**
 * The one way Toolwright waits for unfinished work on shutdown: what is still pending (the
 * requests a stdio connection has read but not answered, the HTTP POSTs still being
 * answered), and a wait until none is, with a time limit. Every listener drains through it;
 * the keys say what to abandon when the wait runs out. Work nobody names goes to `PendingCount`.
 */
export class Pending<K = unknown> {
  private readonly items = new Set<K>();
  private readonly counter = new PendingCount();

  get count(): number {
    return this.items.size;
  }

  add(key: K): void {
    if (this.items.has(key)) return;
    this.items.add(key);
    this.counter.add();
  }

  /** Settles `key`; true if it was pending. */
  delete(key: K): boolean {
    if (!this.items.delete(key)) return false;
    this.counter.done();
    return true;
  }

  /** What is still pending, in the order it came. */
  keys(): IterableIterator<K> {
    return this.items.values();
  }

  /** Resolves when nothing is pending, or after `timeoutMs`; true if everything finished. */
  drain(timeoutMs: number): Promise<boolean> {
    return this.counter.drain(timeoutMs);
  }
}
