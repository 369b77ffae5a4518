import { ConfigError, type SessionState } from '@toolwright/core';
import { jsonProblem } from '@toolwright/core/internal';
import type { Server } from '../sdk/sdk';

/** `ctx.session` of each connection (one SDK `Server`): given by the HTTP layer (a cluster's), or made in memory on first use. */
const states = new WeakMap<Server, SessionState>();

/**
 * Makes `state` the `ctx.session` of every call this server serves (a cluster store's, for a
 * shared session). A value JSON cannot carry is refused before it reaches the store, as in memory.
 */
export function bindSessionState(server: Server, state: SessionState): void {
  states.set(server, {
    get: (key) => state.get(key),
    async set(key, value) {
      refuseUnstorable(key, value);
      await state.set(key, value);
    },
    delete: (key) => state.delete(key),
  });
}

/** Throws, saying where, when JSON cannot carry `value` (a BigInt, a cycle); what JSON drops (a function, a symbol) passes: it is stored as undefined is, not at all. */
function refuseUnstorable(key: string, value: unknown): void {
  const problem = value === undefined ? undefined : jsonProblem(value, 'value');
  if (problem !== undefined) throw new ConfigError(`ctx.session.set('${key}') cannot store this value: ${problem}`);
}

/** The `ctx.session` of a call on `server`; undefined when its requests have no session (`hasSession` false). */
export function sessionStateOf(server: Server, hasSession: boolean): SessionState | undefined {
  if (!hasSession) return undefined;
  let state = states.get(server);
  if (!state) {
    state = new MemorySessionState();
    states.set(server, state);
  }
  return state;
}

/** The default: a map that lives as long as the connection. Values are copied in and out (JSON), as a shared store would. */
export class MemorySessionState implements SessionState {
  private readonly values = new Map<string, string>();

  async get<T = unknown>(key: string): Promise<T | undefined> {
    const text = this.values.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  /** What JSON drops (a function, a symbol) is stored as undefined is: not at all. What it cannot carry (a BigInt, a cycle) is refused, saying where. */
  async set(key: string, value: unknown): Promise<void> {
    refuseUnstorable(key, value);
    const text = value === undefined ? undefined : (JSON.stringify(value) as string | undefined);
    if (text === undefined) this.values.delete(key);
    else this.values.set(key, text);
  }

  async delete(key: string): Promise<boolean> {
    return this.values.delete(key);
  }
}
