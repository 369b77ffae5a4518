import type { UsedStateStore } from './RequestStateCodec';

/** The default `UsedStateStore`: the ids in this process, each forgotten once its state has expired. */
export class MemoryUsedStateStore implements UsedStateStore {
  private readonly used = new Map<string, number>();
  private nextSweep = 0;

  claim(id: string, expiresAt: number): boolean {
    const now = Date.now();
    if (now >= this.nextSweep) {
      this.nextSweep = now + 1000;
      for (const [key, exp] of this.used) if (exp <= now) this.used.delete(key);
    }
    if (this.used.has(id)) return false;
    this.used.set(id, expiresAt);
    return true;
  }
}
