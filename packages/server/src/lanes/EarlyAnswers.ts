import { ToolwrightError } from '@toolwright/core';
import type { RequestId, Transport } from '../sdk/sdk';

/** What to send when an early answer settles. */
export interface EarlyReply<T> {
  result(value: T): unknown;
  error(error: unknown): unknown;
}

/**
 * The requests a fast path answers itself, before the SDK sees them, on one transport (see
 * `serveDirectCalls`). As with the SDK, nothing is sent for a request the client cancelled or
 * once the connection closed.
 */
export class EarlyAnswers {
  /** Requests served here and not answered yet: true once the client cancelled one. */
  private readonly running = new Map<RequestId, boolean>();
  private closed = false;

  constructor(
    transport: Transport,
    /** Gets what the SDK would report as a failed send. */
    private readonly onerror: (error: Error) => void,
  ) {
    const onclose = transport.onclose;
    transport.onclose = () => {
      this.closed = true;
      onclose?.();
    };
  }

  /** Whether request `id` is being answered here (a second request with its id goes to the SDK). */
  has(id: RequestId): boolean {
    return this.running.has(id);
  }

  /** Answers request `id` with what `answer` settles to, through `reply`. */
  serve<T>(id: RequestId, answer: Promise<T>, reply: EarlyReply<T>): void {
    this.running.set(id, false);
    answer
      .then(
        (value) => (this.wanted(id) ? reply.result(value) : undefined),
        (error: unknown) => (this.wanted(id) ? reply.error(error) : undefined),
      )
      .catch((error: unknown) => this.onerror(new ToolwrightError(`Failed to send response: ${String(error)}`, { cause: error })))
      .finally(() => this.running.delete(id));
  }

  /** Notes a client message the lane passes on: a cancellation (a notification: a request of that name cancels nothing) of a request answered here. */
  observe(message: { method?: unknown; params?: unknown }): void {
    if (message.method !== 'notifications/cancelled' || this.running.size === 0 || 'id' in message) return;
    const id = (message.params as { requestId?: unknown } | undefined)?.requestId as RequestId;
    if (this.running.has(id)) this.running.set(id, true);
  }

  private wanted(id: RequestId): boolean {
    return !this.running.get(id) && !this.closed;
  }
}
