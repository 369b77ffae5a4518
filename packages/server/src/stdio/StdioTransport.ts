import { Pending } from '../ground/Pending';
import { PendingCount } from '../ground/PendingCount';
import type { AuthInfo } from '@toolwright/core';
import type { JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, Transport } from '../sdk/sdk';
import { invalidMessageError } from '../rpc/invalidMessageError';
import { jsonRpcKind } from '../rpc/jsonRpcKind';
import { decodeUtf8 } from '../rpc/decodeUtf8';
import { malformedAnswer } from '../rpc/malformedAnswer';
import { ProtocolError } from '../sdk/ProtocolError';
import { ErrorCodes } from '../sdk/ProtocolError';
import { SHUTTING_DOWN } from '../rpc/shuttingDown';

/** The longest line (one message) the transport reads; a longer one is refused unread. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/**
 * Answers the output has not taken yet, in characters, past which no more input is read until it
 * has taken half of them: a client that writes requests and does not read the answers meets the
 * pipe's own back-pressure instead of the server holding every answer in memory.
 */
const OUTPUT_BACKLOG_LIMIT = 1024 * 1024;
const NEWLINE = 10;
const CARRIAGE_RETURN = 13;
const RESOLVED = Promise.resolve();
/** The error that stands for the client's answer once its input ended (-32000, the SDK's code for a closed connection). */
const INPUT_ENDED = { code: -32000, message: 'the client closed its input (stdin) before answering, so no answer can arrive.' };

/**
 * Newline-delimited JSON-RPC over a pair of streams.
 *
 * Unlike the SDK's stdio transport it answers every line: one that is not JSON with
 * -32700, and one the SDK would drop unanswered (see `jsonRpcKind`) with -32600, so each
 * request gets exactly one response. The check is done by hand rather than with the SDK's
 * zod schemas, which the protocol layer runs again anyway. Messages
 * sent while one batch of input is handled leave in one write (flushed on the next tick),
 * which saves a system call per message when many calls finish together and costs a
 * single call nothing. `send` resolves at once unless the output is backed up; then it
 * resolves when the output has taken the waiting messages. While more than
 * `OUTPUT_BACKLOG_LIMIT` of answers wait for the output, input is paused.
 */
export class StdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Called when the input ends. Default: close at once; a server sets it to finish running calls first. */
  oninputend?: () => void;

  /** Handed with every message: who the stdio caller is, when the process that started the server says so. */
  private extra: MessageExtraInfo | undefined;
  private started = false;
  /** The start of a line whose newline has not arrived yet, as it came in. */
  private parts: Buffer[] = [];
  private partBytes = 0;
  /** True while skipping the rest of a line that went over the limit. */
  private skipping = false;
  private closed = false;
  private draining = false;
  /** An initialize was accepted ('done'), or is being answered (its id): a connection is initialized once. */
  private initialized: 'done' | { id: string | number } | undefined;
  /** Ids of requests read but not yet answered. */
  private readonly pending = new Pending<string | number>();
  /**
   * The server's own requests (sampling, elicitation, roots) the client has not answered yet: each
   * id as sent, keyed by `askedKey(id)` (the SDK matches an answer to "0" with the request 0).
   */
  private readonly asked = new Map<string | number, string | number>();
  /** True once the input ended: the client can answer no request from then on. */
  private inputEnded = false;
  /** Serialized messages waiting for the next flush. */
  private outbox: string[] = [];
  /** While the output is backed up: what `send` returns, settled once the output has taken every write. */
  private backlog: { promise: Promise<void>; resolve: () => void } | undefined;
  /** Characters handed to the output and not yet taken by it. */
  private untaken = 0;
  /** Writes handed to the output and not yet taken by it (it takes them in order). */
  private readonly writing = new PendingCount();
  /** True while input is paused because the output is `OUTPUT_BACKLOG_LIMIT` behind. */
  private inputPaused = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly write: (chunk: string, done: () => void) => boolean,
  ) {}

  /** Every message read from now on carries `authInfo` (handlers see it as the caller). */
  setCaller(authInfo: AuthInfo | undefined): void {
    this.extra = authInfo && { authInfo };
  }

  /** Starts reading; calling it again does nothing (the era entry and the server both start it). */
  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return RESOLVED;
    const id = (message as { id?: string | number }).id;
    if (id !== undefined && 'method' in message) {
      this.asked.set(askedKey(id), id);
      // Asked after the input ended (a call still running asks): no answer can come, so it fails at once, and is not sent.
      if (this.inputEnded) {
        process.nextTick(() => this.failAsked(id));
        return RESOLVED;
      }
    } else if (id === undefined) this.forgetAsked(message as { method?: string; params?: { requestId?: unknown } });
    else {
      this.pending.delete(id);
      // A refused initialize leaves the connection open to another one.
      if (typeof this.initialized === 'object' && this.initialized.id === id) this.initialized = 'result' in message ? 'done' : undefined;
    }
    if (this.outbox.push(`${JSON.stringify(message)}\n`) === 1) process.nextTick(this.flush);
    return this.backlog?.promise ?? RESOLVED;
  }

  private readonly flush = (): void => {
    if (this.outbox.length === 0) return;
    const chunk = this.outbox.length === 1 ? this.outbox[0] : this.outbox.join('');
    this.outbox = [];
    this.untaken += chunk.length;
    this.writing.add();
    if (!this.write(chunk, () => this.taken(chunk.length)) && !this.backlog) this.backlog = backlog();
    if (this.untaken > OUTPUT_BACKLOG_LIMIT && !this.inputPaused && !this.closed) {
      this.inputPaused = true;
      this.input.pause();
    }
  };

  /** The output took a write of `size` characters; once it has taken every one, senders stop waiting. */
  private taken(size: number): void {
    this.untaken -= size;
    this.writing.done();
    if (this.inputPaused && this.untaken <= OUTPUT_BACKLOG_LIMIT / 2 && !this.closed) {
      this.inputPaused = false;
      this.input.resume();
    }
    if (this.writing.count > 0 || !this.backlog) return;
    this.backlog.resolve();
    this.backlog = undefined;
  }

  /**
   * Resolves once the output has taken everything sent (or after `timeoutMs`): until then, some
   * of it may still wait in the output stream's buffer, which exiting the process would lose.
   */
  outputTaken(timeoutMs: number): Promise<boolean> {
    return this.writing.drain(timeoutMs);
  }

  /** Resolves once every request read so far has been answered (or after `timeoutMs`). */
  idle(timeoutMs: number): Promise<boolean> {
    return this.pending.drain(timeoutMs);
  }

  /**
   * Shutdown has begun: requests read from now on are refused with an error, while
   * responses (the client answering the server's own requests, such as sampling) and
   * notifications (cancellations) still reach the server, so running calls can finish.
   */
  drain(): void {
    this.draining = true;
  }

  /** Answers every request still running with an error (shutdown gave up waiting for it); later answers are not sent. */
  abandon(reason: string): void {
    for (const id of this.pending.keys()) void this.send({ jsonrpc: '2.0', id, error: { code: SHUTTING_DOWN, message: reason } } as unknown as JSONRPCMessage);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.parts = [];
    this.onclose?.();
  }

  /**
   * Splits input into lines in time linear in its size. A line's pieces are kept as the
   * chunks they came in and joined once at its newline; a line growing past the limit is
   * dropped at once and the rest of it skipped up to its newline, with one error reply.
   */
  private readonly onData = (chunk: Buffer | string): void => {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    let start = 0;
    let newline: number;
    while ((newline = data.indexOf(NEWLINE, start)) !== -1) {
      const piece = data.subarray(start, newline);
      start = newline + 1;
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.partBytes + piece.length > MAX_LINE_BYTES) {
        this.tooLarge();
        continue;
      }
      const line = this.parts.length === 0 ? piece : Buffer.concat([...this.parts, piece], this.partBytes + piece.length);
      this.parts = [];
      this.partBytes = 0;
      this.handleLine(line);
      if (this.closed) return;
    }
    if (start === data.length || this.skipping) return;
    if (this.partBytes + data.length - start > MAX_LINE_BYTES) {
      this.tooLarge();
      this.skipping = true;
      return;
    }
    this.parts.push(data.subarray(start));
    this.partBytes += data.length - start;
  };

  private tooLarge(): void {
    this.parts = [];
    this.partBytes = 0;
    this.reply(null, ErrorCodes.InvalidRequest, `Message too large: a single line may hold at most ${MAX_LINE_BYTES} bytes.`);
  }

  private handleLine(bytes: Buffer): void {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN ? bytes.length - 1 : bytes.length;
    const line = decodeUtf8(bytes.subarray(0, end));
    if (line === undefined) return this.reply(null, ErrorCodes.ParseError, 'Parse error: the line is not valid UTF-8. Send JSON encoded as UTF-8.');
    if (line.trim() === '') return;
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.reply(null, ErrorCodes.ParseError, 'Parse error: the line is not valid JSON.');
      return;
    }
    const kind = jsonRpcKind(message);
    if (kind === undefined) {
      const answer = invalidMessageError(message);
      this.reply(answer.id, answer.error.code, answer.error.message);
      // A malformed answer to one of the server's requests ends the wait for it, as an error.
      const failed = malformedAnswer(message);
      if (failed) this.answered(failed as JSONRPCMessage);
      return;
    }
    if (kind === 'request') {
      const request = message as JSONRPCRequest;
      const refusal = this.refusal(request);
      if (refusal) return this.reply(request.id, refusal.code, refusal.message);
      // A subscriptions/listen stream lasts until the client or shutdown ends it: shutdown does not wait for it (as over HTTP).
      if (request.method !== 'subscriptions/listen') this.pending.add(request.id);
    } else if (kind === 'notification') {
      this.forgetCancelled(message as { method: string; params?: { requestId?: unknown } });
    } else {
      return this.answered(message as JSONRPCMessage);
    }
    this.deliver(message as JSONRPCMessage);
  }

  /** Hands on the client's answer to one of the server's requests. */
  private answered(response: JSONRPCMessage): void {
    this.asked.delete(askedKey((response as { id: string | number }).id));
    this.deliver(response);
  }

  /** Ends the wait for one of the server's requests, still open, with the error that stands for the client's answer. */
  private failAsked(id: string | number): void {
    if (!this.asked.has(askedKey(id))) return;
    this.answered({ jsonrpc: '2.0', id, error: INPUT_ENDED } as unknown as JSONRPCMessage);
  }

  private deliver(message: JSONRPCMessage): void {
    try {
      this.onmessage?.(message, this.extra);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  /** Why a well-formed request is not handed on, if it is not: any request once shutdown began, a second initialize. */
  private refusal(request: JSONRPCRequest): { code: number; message: string } | undefined {
    if (this.draining) return { code: SHUTTING_DOWN, message: 'Server shutting down: this request was not started. Send it again to a new server process.' };
    if (request.method !== 'initialize') return undefined;
    if (this.initialized !== undefined) {
      return { code: ErrorCodes.InvalidRequest, message: 'Invalid Request: Server already initialized. A stdio connection is initialized once; start a new server process to begin again.' };
    }
    this.initialized = { id: request.id };
    return undefined;
  }

  /** The SDK sends no answer for a request the client cancelled: shutdown must not wait for one, nor answer it. */
  private forgetCancelled(notification: { method: string; params?: { requestId?: unknown } }): void {
    if (notification.method !== 'notifications/cancelled') return;
    const id = notification.params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') this.pending.delete(id);
  }

  /** The server gave up one of its requests (its timeout, its call ended) and told the client: no answer is awaited any more. */
  private forgetAsked(notification: { method?: string; params?: { requestId?: unknown } }): void {
    if (notification.method !== 'notifications/cancelled') return;
    const id = notification.params?.requestId;
    if (typeof id === 'string' || typeof id === 'number') this.asked.delete(askedKey(id));
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new ProtocolError(code, message));
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  /**
   * The input ended: the client can answer none of the server's requests still open, so each
   * ends now with an error, as if the client had sent it (a call waiting for one finishes
   * instead of holding shutdown until the drain timeout); `send` fails those asked later the same way.
   */
  private readonly onEnd = (): void => {
    this.inputEnded = true;
    for (const id of [...this.asked.values()]) this.failAsked(id);
    if (this.oninputend) this.oninputend();
    else void this.close();
  };
}

/**
 * The key of one of the server's requests in `asked`, as the SDK matches an answer to its
 * request (`Number(id)`): a number, or a string `Number` reads as one, by that number ("0", ""
 * and " " all answer the request 0); any other string as it is.
 */
function askedKey(id: string | number): string | number {
  if (typeof id === 'number') return id;
  const number = Number(id);
  return Number.isNaN(number) ? id : number;
}

function backlog(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
