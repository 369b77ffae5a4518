import { ConfigError } from '@toolwright/core';
import type { CacheEntry, CacheStore } from './CacheStore';

export interface MemoryCacheStoreOptions {
  /** The most results kept; the least recently used goes first. Default 1000. */
  readonly maxEntries?: number;
}

/**
 * The default `CacheStore`: a map in this process, bounded by `maxEntries` (least recently
 * used first out). An expired entry is dropped when it is next asked for.
 */
export class MemoryCacheStore implements CacheStore {
  private readonly entries = new Map<string, CacheEntry>();
  private readonly maxEntries: number;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    if (!(Number.isInteger(this.maxEntries) && this.maxEntries > 0)) throw new ConfigError(`MemoryCacheStore: maxEntries must be a positive integer, got ${options.maxEntries}.`);
  }

  /** How many results are kept now. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): CacheEntry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    // Touched: to the back of the line.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
  }

  /** Forgets one result (`key` as the cache made it) or, with no key, all of them. */
  clear(key?: string): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
