import { PendingCount } from './PendingCount';

/**
 * The one way Toolwright waits for unfinished work on shutdown: what is still pending (the
 * requests a stdio connection has read but not answered, the HTTP POSTs still being
 * answered), and a wait until none is, with a time limit. Every listener drains through it;
 * the keys say what to abandon when the wait runs out. Work nobody names goes to `PendingCount`.
 */
export class Pending<K = unknown> {
  /** How many of each key are pending: a client may reuse a request id while its first request runs. */
  private readonly items = new Map<K, number>();
  private readonly counter = new PendingCount();

  /** How many different keys are pending. */
  get count(): number {
    return this.items.size;
  }

  add(key: K): void {
    this.items.set(key, (this.items.get(key) ?? 0) + 1);
    this.counter.add();
  }

  /** Settles one `key`; true if it was pending. */
  delete(key: K): boolean {
    const left = this.items.get(key);
    if (left === undefined) return false;
    if (left === 1) this.items.delete(key);
    else this.items.set(key, left - 1);
    this.counter.done();
    return true;
  }

  /** What is still pending, in the order it came, a key as many times as it is pending. */
  *keys(): IterableIterator<K> {
    for (const [key, times] of this.items) for (let i = 0; i < times; i++) yield key;
  }

  /** Resolves when nothing is pending, or after `timeoutMs`; true if everything finished. */
  drain(timeoutMs: number): Promise<boolean> {
    return this.counter.drain(timeoutMs);
  }
}
