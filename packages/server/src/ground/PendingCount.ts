/**
 * How many units of work are unfinished, and a wait until none is (what `Pending` waits with):
 * for callers that never ask which ones (the app's running calls, the fetch handler's POSTs). No collection
 * holds the work, so a call costs a counter instead of a `Set` entry added and removed.
 * Each `add()` must be matched by exactly one `done()`.
 */
export class PendingCount {
  private pending = 0;
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.pending;
  }

  add(): void {
    this.pending++;
  }

  done(): void {
    if (--this.pending > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  }

  /** Counts `work` until it settles; returns `work` itself. */
  track<T extends Promise<unknown>>(work: T): T {
    this.pending++;
    const settle = () => this.done();
    work.then(settle, settle);
    return work;
  }

  /** Resolves when nothing is pending, or after `timeoutMs`; true if everything finished. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.pending === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
