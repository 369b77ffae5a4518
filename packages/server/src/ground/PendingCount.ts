/**
 * How many units of work are unfinished, and a wait until none is: `Pending` for callers that
 * never ask which ones (the app's running calls, the fetch handler's POSTs). No collection
 * holds the work: each of these starts per request, and a long-lived `Set` that every request
 * passes through made V8 keep the request's objects past young-generation collections (about
 * a tenth of a 2026-07-28 HTTP call's CPU, measured). Each `add()` must be matched by exactly one `done()`.
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
