/** Counts running calls so shutdown can wait for them to finish. */
export class InFlight {
  private running = 0;
  private waiters: (() => void)[] = [];

  get count(): number {
    return this.running;
  }

  /** Counts `work` until it settles; returns `work` itself. */
  track<T>(work: Promise<T>): Promise<T> {
    this.running++;
    work.then(this.settle, this.settle);
    return work;
  }

  private readonly settle = (): void => {
    if (--this.running === 0) for (const wake of this.waiters.splice(0)) wake();
  };

  /** Resolves when no call is running, or after `timeoutMs`; true if everything finished. */
  drain(timeoutMs: number): Promise<boolean> {
    if (this.running === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
