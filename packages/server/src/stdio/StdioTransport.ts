import type { AuthInfo } from '@toolwright/core';
import type { JSONRPCMessage, MessageExtraInfo, Transport } from '../sdk/sdk';
import { ErrorCodes } from '../sdk/ProtocolError';

const MAX_LINE_BYTES = 16 * 1024 * 1024;
const CARRIAGE_RETURN = 13;
const RESOLVED = Promise.resolve();

/**
 * Newline-delimited JSON-RPC over a pair of streams.
 *
 * Unlike the SDK's stdio transport it answers a line that is not JSON with a -32700
 * error and a message that is not JSON-RPC with -32600 (the SDK only reports them
 * locally), and it checks a message's envelope cheaply instead of parsing it with zod a
 * first time: the SDK's protocol layer validates every message again anyway. Messages
 * sent while one batch of input is handled leave in one write (flushed on the next tick),
 * which saves a system call per message when many calls finish together and costs a
 * single call nothing. `send` resolves at once unless the output is backed up; then it
 * resolves when the output has taken the waiting messages.
 */
export class StdioTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /** Called when the input ends. Default: close at once; a server sets it to finish running calls first. */
  oninputend?: () => void;

  /** Handed with every message: who the stdio caller is, when the process that started the server says so. */
  private extra: MessageExtraInfo | undefined;
  private buffer = '';
  private started = false;
  private closed = false;
  /** Ids of requests read but not yet answered. */
  private readonly pending = new Set<string | number>();
  private idleWaiters: (() => void)[] = [];
  /** Serialized messages waiting for the next flush. */
  private outbox: string[] = [];
  /** Writes handed to the output so far. */
  private writes = 0;
  /** While the output is backed up: what `send` returns, settled once the output has taken every write. */
  private backlog: { promise: Promise<void>; resolve: () => void } | undefined;

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
    this.input.setEncoding('utf8');
    this.input.on('data', this.onData);
    this.input.on('error', this.onInputError);
    this.input.on('end', this.onEnd);
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return RESOLVED;
    const id = (message as { id?: string | number }).id;
    if (id !== undefined && !('method' in message) && this.pending.delete(id) && this.pending.size === 0) {
      for (const wake of this.idleWaiters.splice(0)) wake();
    }
    if (this.outbox.push(`${JSON.stringify(message)}\n`) === 1) process.nextTick(this.flush);
    return this.backlog?.promise ?? RESOLVED;
  }

  private readonly flush = (): void => {
    if (this.outbox.length === 0) return;
    const chunk = this.outbox.length === 1 ? this.outbox[0] : this.outbox.join('');
    this.outbox = [];
    const write = ++this.writes;
    if (!this.write(chunk, () => this.taken(write)) && !this.backlog) this.backlog = backlog();
  };

  /** The output took write number `write`; if that was the latest, senders stop waiting. */
  private taken(write: number): void {
    if (write !== this.writes || !this.backlog) return;
    this.backlog.resolve();
    this.backlog = undefined;
  }

  /** Resolves once every request read so far has been answered (or after `timeoutMs`). */
  idle(timeoutMs: number): Promise<void> {
    if (this.pending.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Stops reading input; requests already read are still answered. */
  stopReading(): void {
    this.input.off('data', this.onData);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onInputError);
    this.input.off('end', this.onEnd);
    this.buffer = '';
    this.onclose?.();
  }

  private readonly onData = (chunk: string): void => {
    const text = this.buffer + chunk;
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) !== -1) {
      const end = newline > start && text.charCodeAt(newline - 1) === CARRIAGE_RETURN ? newline - 1 : newline;
      const line = text.slice(start, end);
      start = newline + 1;
      if (line.trim() !== '') this.handleLine(line);
      if (this.closed) return;
    }
    this.buffer = start === 0 ? text : text.slice(start);
    if (this.buffer.length > MAX_LINE_BYTES) {
      this.buffer = '';
      this.reply(null, ErrorCodes.InvalidRequest, `Message too large: a single line may hold at most ${MAX_LINE_BYTES} bytes.`);
    }
  };

  private handleLine(line: string): void {
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.reply(null, ErrorCodes.ParseError, 'Parse error: the line is not valid JSON.');
      return;
    }
    if (!isJsonRpcEnvelope(message)) {
      const id = typeof message === 'object' && message !== null ? (message as { id?: unknown }).id : undefined;
      this.reply(typeof id === 'string' || typeof id === 'number' ? id : null, ErrorCodes.InvalidRequest, 'Invalid Request: expected a JSON-RPC 2.0 message object with "jsonrpc": "2.0".');
      return;
    }
    if ('method' in message && 'id' in message) this.pending.add(message.id);
    try {
      this.onmessage?.(message, this.extra);
    } catch (error) {
      this.onerror?.(error as Error);
    }
  }

  private reply(id: string | number | null, code: number, message: string): void {
    this.onerror?.(new Error(message));
    void this.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage);
  }

  private readonly onInputError = (error: Error): void => {
    this.onerror?.(error);
  };

  private readonly onEnd = (): void => {
    if (this.oninputend) this.oninputend();
    else void this.close();
  };
}

function isJsonRpcEnvelope(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  if (m.jsonrpc !== '2.0') return false;
  if (typeof m.method === 'string') return true;
  return (typeof m.id === 'string' || typeof m.id === 'number') && ('result' in m || 'error' in m);
}

function backlog(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}
