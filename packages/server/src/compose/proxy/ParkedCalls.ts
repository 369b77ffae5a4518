import type { ToolContext } from '@toolwright/core';
import { connectionOfContext } from '../../pipeline/contextConnection';
import type { Connection } from '../../pipeline/Connection';
import { callerKey } from './callerKey';
import type { ProxyState } from './ProxyState';
import type { Parking } from './UpstreamSession';
import type { Lease } from './UpstreamSessionPool';

/** A call parked until its client's retry. */
export interface ParkedCall {
  readonly lease: Lease;
  readonly resume: (ctx: ToolContext) => Promise<unknown>;
  readonly timer: NodeJS.Timeout;
}

/**
 * Calls of 2025-era upstream sessions waiting for a 2026-07-28 client's answer, by caller and
 * request: the client's retry resumes the call (and its lease) instead of running it again.
 */
export class ParkedCalls {
  private readonly parked = new Map<string, ParkedCall>();
  private readonly connectionIds = new WeakMap<Connection, number>();
  private connections = 0;

  constructor(
    private readonly state: ProxyState,
    /** `maxSessions`: at most this many calls wait at once. */
    private readonly max: number,
    /** `requestTimeoutMs`: a call waits this long for its retry, then is cancelled. */
    private readonly timeoutMs: number,
  ) {}

  /**
   * Who may resume a parked call of `request`: a 2026-07-28 caller with an identity (client ID
   * and subject), or the one client of a stdio or in-memory connection. An anonymous HTTP caller
   * cannot be told from another, so its calls are run again on the retry instead.
   */
  keyOf(ctx: ToolContext, request: string): string | undefined {
    if (ctx.era !== 'modern') return undefined;
    if (ctx.authInfo) return `${callerKey(ctx.authInfo)}\n${request}`;
    const connection = connectionOfContext(ctx);
    if (connection === undefined || ctx.headers !== undefined) return undefined;
    let id = this.connectionIds.get(connection);
    if (id === undefined) this.connectionIds.set(connection, (id = ++this.connections));
    return `connection ${id}\n${request}`;
  }

  /** The call parked under `key`, no longer waiting (its timer stopped); undefined when none is. */
  take(key: string): ParkedCall | undefined {
    const parked = this.parked.get(key);
    if (parked) {
      this.parked.delete(key);
      clearTimeout(parked.timer);
    }
    return parked;
  }

  /** Keeps a call waiting for its client's answer under `key` (one per key, at most `maxSessions`), cancelled after `requestTimeoutMs`. */
  parking<R>(key: string, lease: Lease): Parking<R> {
    return {
      park: (resume, abandon) => {
        if (this.state.stopped || this.parked.has(key) || this.parked.size >= this.max) return false;
        const entry: ParkedCall = {
          lease,
          resume: resume as ParkedCall['resume'],
          timer: setTimeout(() => {
            if (this.parked.get(key) !== entry) return;
            this.parked.delete(key);
            abandon();
            lease.release();
          }, this.timeoutMs),
        };
        entry.timer.unref();
        this.parked.set(key, entry);
        return true;
      },
    };
  }

  /** Gives the lease back when the call ended, not when it was parked. */
  async settle<R>(key: string | undefined, lease: Lease, running: Promise<R>): Promise<R> {
    try {
      return await running;
    } finally {
      if (key === undefined || this.parked.get(key)?.lease !== lease) lease.release();
    }
  }

  /** Cancels every wait (the proxy stopped). */
  clear(): void {
    for (const parked of this.parked.values()) clearTimeout(parked.timer);
    this.parked.clear();
  }
}
