import { SHUTTING_DOWN } from '../rpc/shuttingDown';

/**
 * The 2026-07-28 calls of a web-standard endpoint that shutdown abandons once its drain timeout
 * passed. Closing the SDK's handler then ends each running call with an empty answer (a stream
 * already open just ends); here each gets a -32000 error that names the reason and carries the
 * call's id instead: a JSON body, or a last event on its stream. Nothing is kept per call until
 * then, but the event streams (which the SDK opens only for calls that send notifications).
 */
export class AbandonableCalls {
  /** Why the calls still running were abandoned, once they are. */
  private reason: string | undefined;
  /** Calls answering on an event stream still open, each with how to end its stream with its error. */
  private readonly streams = new Set<(reason: string) => void>();

  /** `response`, the SDK's answer to call `id` (undefined: no call), as the client should get it: the error instead if the call was abandoned. */
  answer(id: string | number | undefined, response: Response): Response {
    if (id === undefined) return response;
    // Closing the SDK's handler answered it without its result (an empty 499).
    if (this.reason !== undefined && !response.ok) return new Response(errorAnswer(id, this.reason), { status: 200, headers: { 'content-type': 'application/json' } });
    const { body } = response;
    if (!body || !(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) return response;
    return new Response(this.endable(id, body), { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** From now on, every call still running is answered with a -32000 error giving `reason`. */
  abandon(reason: string): void {
    this.reason ??= reason;
    for (const end of [...this.streams]) end(reason);
    this.streams.clear();
  }

  /** The stream `body` passed on as it comes, until the call is abandoned: then it ends with the call's error. */
  private endable(id: string | number, body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
    const reader = body.getReader();
    const streams = this.streams;
    let end: (reason: string) => void = () => undefined;
    const abandoned = new Promise<{ reason: string }>((resolve) => (end = (reason) => resolve({ reason })));
    streams.add(end);
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        let next: Awaited<ReturnType<typeof reader.read>> | { reason: string };
        try {
          next = await Promise.race([reader.read(), abandoned]);
        } catch (error) {
          streams.delete(end);
          throw error;
        }
        if ('reason' in next) {
          controller.enqueue(new TextEncoder().encode(`event: message\ndata: ${errorAnswer(id, next.reason)}\n\n`));
          controller.close();
          void reader.cancel().catch(() => undefined);
          return;
        }
        if (next.done) {
          streams.delete(end);
          controller.close();
          return;
        }
        controller.enqueue(next.value);
      },
      cancel(reason) {
        streams.delete(end);
        return reader.cancel(reason);
      },
    });
  }
}

/** The JSON-RPC error that answers an abandoned call. */
function errorAnswer(id: string | number, reason: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: reason } });
}
