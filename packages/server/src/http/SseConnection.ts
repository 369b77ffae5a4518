import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { responseClosed } from '../ground/responseClosed';

/**
 * One `text/event-stream` HTTP response. Until it is flushed, events are only buffered:
 * most POST exchanges (priming event, then the response) are over within one turn of the
 * event loop, and then leave in a single write with a Content-Length instead of a status
 * line, chunk framing and a syscall per event. A stream still open at the end of the turn
 * (`flushSoon`) is flushed and written through from then on.
 */
export class SseConnection {
  private buffer = '';
  private flushed = false;
  private ended = false;
  private timer: NodeJS.Immediate | undefined;
  /** Event ids a replay already wrote here: live sends of the same events skip them. */
  replayed: Set<string> | undefined;

  constructor(
    private readonly res: ServerResponse,
    private readonly headers: OutgoingHttpHeaders,
    /** Most bytes left unsent (the client reads too slowly) before the next write drops the stream; it can resume with Last-Event-ID. */
    private readonly maxBuffered = Infinity,
  ) {}

  /** False once ended here or the client went away. */
  get open(): boolean {
    return !this.ended && !this.res.writableEnded && !responseClosed(this.res);
  }

  /** An event carrying one JSON-RPC message (JSON.stringify never emits a raw newline, so one `data:` line suffices). */
  event(message: unknown, eventId?: string): void {
    this.write(eventId === undefined ? `event: message\ndata: ${JSON.stringify(message)}\n\n` : `event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** The event that gives the client a resumption point before any message (spec 2025-11-25 SSE polling). */
  priming(eventId: string, retryMs?: number): void {
    this.write(retryMs === undefined ? `id: ${eventId}\ndata: \n\n` : `id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`);
  }

  /** A comment line that keeps proxies from timing out an idle stream; skipped while still buffering. */
  comment(text: string): void {
    if (this.flushed && this.open) this.writeThrough(`: ${text}\n\n`);
  }

  /** Flushes at the end of this turn of the event loop, unless the stream ends first. */
  flushSoon(): void {
    if (!this.flushed && !this.timer && !this.ended) this.timer = setImmediate(this.flush);
  }

  /** Sends the headers and everything buffered; later events are written as they come. */
  readonly flush = (): void => {
    this.timer = undefined;
    if (this.flushed || !this.open) return;
    this.flushed = true;
    this.res.writeHead(200, this.headers);
    if (this.buffer) this.res.write(this.buffer);
    else this.res.flushHeaders();
    this.buffer = '';
  };

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.timer) clearImmediate(this.timer);
    this.timer = undefined;
    if (responseClosed(this.res)) return;
    if (this.flushed) {
      this.res.end();
      return;
    }
    this.headers['content-length'] = Buffer.byteLength(this.buffer);
    this.res.writeHead(200, this.headers).end(this.buffer);
    this.buffer = '';
  }

  private write(chunk: string): void {
    if (!this.open) return;
    if (this.flushed) this.writeThrough(chunk);
    else this.buffer += chunk;
  }

  private writeThrough(chunk: string): void {
    // More than the bound still unsent when the next chunk comes: the client stopped reading. (One
    // message larger than the bound still goes to a client that reads.)
    if (this.res.writableLength > this.maxBuffered) {
      this.res.destroy();
      return;
    }
    this.res.write(chunk);
  }
}
