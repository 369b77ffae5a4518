/**
 * What a tool keeps for the client's session (`ctx.session`): JSON values by key, kept as
 * long as the session. In memory by default; shared by every instance with a cluster store
 * (`@toolwright/redis`), so a value set through one instance is read through any other.
 */
export interface SessionState {
  /** The value stored under `key`, or undefined. */
  get<T = unknown>(key: string): Promise<T | undefined>;
  /** Stores a JSON value under `key` (undefined, and what JSON drops, deletes it); a value JSON cannot carry (a BigInt, a cycle) is refused, saying where. */
  set(key: string, value: unknown): Promise<void>;
  /** Removes `key`; true if it was there. */
  delete(key: string): Promise<boolean>;
}
