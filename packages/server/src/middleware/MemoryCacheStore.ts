import { ConfigError } from '@toolwright/core';
import type { CacheEntry, CacheStore } from './CacheStore';

export interface MemoryCacheStoreOptions {
  /** The most results kept; the least recently used goes first. Default 1000. */
  readonly maxEntries?: number;
  /**
   * The most bytes kept over all results, counted as the length of each result's JSON and its
   * key; the least recently used go first, and a result larger than this alone is not kept.
   * Default 64 MiB.
   */
  readonly maxBytes?: number;
}

interface Held {
  readonly entry: CacheEntry;
  readonly bytes: number;
}

/**
 * The default `CacheStore`: a map in this process, bounded by `maxEntries` and `maxBytes`
 * (least recently used first out), so a read-only tool with large results cannot fill the
 * process's memory. An expired entry is dropped when it is next asked for.
 */
export class MemoryCacheStore implements CacheStore {
  private readonly entries = new Map<string, Held>();
  private readonly maxEntries: number;
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(options: MemoryCacheStoreOptions = {}) {
    this.maxEntries = options.maxEntries ?? 1000;
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    if (!(Number.isInteger(this.maxEntries) && this.maxEntries > 0)) throw new ConfigError(`MemoryCacheStore: maxEntries must be a positive integer, got ${options.maxEntries}.`);
    if (!(Number.isInteger(this.maxBytes) && this.maxBytes > 0)) throw new ConfigError(`MemoryCacheStore: maxBytes must be a positive integer, got ${options.maxBytes}.`);
  }

  /** How many results are kept now. */
  get size(): number {
    return this.entries.size;
  }

  get(key: string): CacheEntry | undefined {
    const held = this.entries.get(key);
    if (held === undefined) return undefined;
    // Touched: to the back of the line.
    this.entries.delete(key);
    this.entries.set(key, held);
    return held.entry;
  }

  set(key: string, entry: CacheEntry): void {
    this.drop(key);
    const bytes = key.length + (JSON.stringify(entry.value)?.length ?? 0);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { entry, bytes });
    this.bytes += bytes;
    for (const oldest of this.entries.keys()) {
      if (this.entries.size <= this.maxEntries && this.bytes <= this.maxBytes) break;
      this.drop(oldest);
    }
  }

  /** Forgets one result (`key` as the cache made it) or, with no key, all of them. */
  clear(key?: string): void {
    if (key !== undefined) return this.drop(key);
    this.entries.clear();
    this.bytes = 0;
  }

  private drop(key: string): void {
    const held = this.entries.get(key);
    if (held === undefined) return;
    this.bytes -= held.bytes;
    this.entries.delete(key);
  }
}
