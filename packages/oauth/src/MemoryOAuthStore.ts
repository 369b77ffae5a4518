import { ToolwrightError } from '@toolwright/core';
import type { OAuthStore } from './OAuthStore';

/**
 * The default store: this process's memory. Fine for one instance; state is lost on
 * restart (clients sign in again) and not shared between instances. Expired entries go on
 * read and in a sweep every 1000 writes; past `maxEntries` live entries, writes are refused.
 */
export class MemoryOAuthStore implements OAuthStore {
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();
  private writes = 0;

  constructor(private readonly options: { maxEntries?: number; now?: () => number } = {}) {}

  get size(): number {
    return this.entries.size;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  async get(key: string): Promise<string | undefined> {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  async set(key: string, value: string, ttlSeconds: number): Promise<void> {
    this.write(key, value, ttlSeconds);
  }

  async add(key: string, value: string, ttlSeconds: number): Promise<boolean> {
    if ((await this.get(key)) !== undefined) return false;
    this.write(key, value, ttlSeconds);
    return true;
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key);
  }

  private write(key: string, value: string, ttlSeconds: number): void {
    if (++this.writes % 1000 === 0) this.sweep();
    const max = this.options.maxEntries ?? 100_000;
    if (this.entries.size >= max && !this.entries.has(key)) {
      this.sweep();
      if (this.entries.size >= max) throw new ToolwrightError(`Toolwright oauth: MemoryOAuthStore is full (${max} live entries): raise maxEntries or use a shared store.`);
    }
    this.entries.set(key, { value, expiresAt: this.now() + ttlSeconds * 1000 });
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
