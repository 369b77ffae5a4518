import { spawn, type ChildProcess } from 'node:child_process';
import { parseJSONRPCMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { terminalSafe } from '../cli/terminalSafe';
import { ServerError } from '../cli/UsageError';
import { JsonNesting, tooDeepMessage } from './JsonNesting';
import { MAX_MESSAGE_SIZE, tooLargeMessage } from './messageLimit';

/** How long a server that said it serves HTTP has to answer on stdio before it is taken to serve HTTP only. */
const HTTP_GRACE_MS = 1500;

export interface ChildProcessTransportOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  /** Where the server's stderr (its logs) goes, besides the tail kept for error messages. */
  readonly stderr?: NodeJS.WritableStream;
}

/**
 * The SDK client's transport to a server it starts: newline-delimited JSON-RPC over the
 * child's stdio. Ours rather than the SDK's stdio transport so that a failure says what
 * happened: a line on stdout that is not JSON-RPC (a stray console.log), or an exit before
 * answering with the last lines the server wrote to stderr. (Being its own class, it also
 * probes the server's protocol era in place, without the SDK's extra probe process.)
 */
export class ChildProcessTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the connection failed, in words for the user; set once. */
  failure: ServerError | undefined;
  private child: ChildProcess | undefined;
  private closing = false;
  /** Whether the server has written a message on stdout. */
  private answered = false;
  /** Set once the server said on stderr that it serves HTTP: the wait for its first stdio answer. */
  private httpWait: NodeJS.Timeout | undefined;
  private buffer = '';
  private stderrTail = '';

  constructor(private readonly options: ChildProcessTransportOptions) {}

  start(): Promise<void> {
    const { command, args, cwd } = this.options;
    const child = spawn(command, [...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.child = child;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => this.receive(chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-4000);
      // Its log is shown, never obeyed by the terminal.
      this.options.stderr?.write(terminalSafe(chunk));
      if (!this.answered && this.httpWait === undefined) this.noticeHttp();
    });
    child.stdin!.on('error', () => undefined); // EPIPE after the server exits: reported by 'exit'.
    child.on('exit', (code, signal) => {
      clearTimeout(this.httpWait);
      const tail = this.stderrTail.trim().split('\n').slice(-20).join('\n');
      // Exit 0 before any answer: the entry ran to its end without serving.
      const hint = code === 0 && !this.answered ? " A server keeps serving until its client closes: does the entry call app.listen({ transport: 'stdio' })?" : '';
      if (!this.closing) this.fail(`The server ${signal ? `was killed by ${signal}` : `exited with code ${code}`} before answering${tail ? `. Its last words on stderr:\n${tail}` : '.'}${hint}`);
      this.child = undefined;
      this.onclose?.();
    });
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        this.fail(`Could not start '${command}': ${error.message}`);
        reject(this.failure);
      });
    });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.failure) throw this.failure;
    if (this.closing) throw new ServerError('The connection to the server is closed.');
    this.child?.stdin?.write(`${JSON.stringify(message)}\n`);
  }

  /** Closes stdin (the stdio way to ask a server to stop), then escalates if it lingers. */
  async close(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.closing = true;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.stdin?.end();
    const term = setTimeout(() => child.kill('SIGTERM'), 2000);
    const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(term);
    clearTimeout(kill);
  }

  private receive(chunk: string): void {
    if (this.failure) return;
    // Only the new chunk is searched for a newline: rescanning the whole buffer made a long line quadratic.
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf('\n', start)) !== -1) {
      const line = this.buffer + chunk.slice(start, newline);
      this.buffer = '';
      start = newline + 1;
      if (!this.receiveLine(line.endsWith('\r') ? line.slice(0, -1) : line)) return;
    }
    this.buffer += chunk.slice(start);
    if (this.buffer.length > MAX_MESSAGE_SIZE) {
      this.buffer = '';
      this.stop(tooLargeMessage('The server (on stdout)'));
    }
  }

  /** Handles one line; false when it ended the connection. */
  private receiveLine(line: string): boolean {
    if (line.trim() === '') return true;
    // Checked before parsing: reading a message nested thousands deep overflows the stack.
    if (!new JsonNesting().read(line)) {
      this.stop(tooDeepMessage('The server (on stdout)'));
      return false;
    }
    let message: JSONRPCMessage;
    try {
      message = parseJSONRPCMessage(JSON.parse(line));
    } catch {
      // stdout belongs to the protocol; a stray console.log there breaks real clients too.
      this.stop(`The server wrote a line to stdout that is not JSON-RPC: ${JSON.stringify(line.slice(0, 200))}. Log to stderr (console.error), never stdout.`);
      return false;
    }
    this.answered = true;
    clearTimeout(this.httpWait);
    this.onmessage?.(message);
    return true;
  }

  /**
   * A Toolwright server that says on stderr it listens on HTTP (`"msg":"listening","url":...`) may
   * serve stdio too; one that has not answered on stdio soon after serves only HTTP, and the client
   * would wait out its whole timeout: it is told the URL to call instead.
   */
  private noticeHttp(): void {
    const line = this.stderrTail.split('\n').find((l) => l.includes('"msg":"listening"'));
    if (line === undefined) return;
    let url: unknown;
    try {
      url = (JSON.parse(line) as { url?: unknown }).url;
    } catch {
      return; // a line cut at the tail's start, or not the listener's
    }
    if (typeof url !== 'string') return;
    this.httpWait = setTimeout(() => {
      if (!this.answered)
        this.stop(`The server serves Streamable HTTP at ${url}, not stdio: call it by its URL (toolwright call ${url} ...), or start it so that it serves stdio (app.listen({ transport: 'stdio' })).`);
    }, HTTP_GRACE_MS);
  }

  /** Fails the connection with `message` and stops the server. */
  private stop(message: string): void {
    this.fail(message);
    this.onerror?.(this.failure!);
    void this.close();
  }

  private fail(message: string): void {
    this.failure ??= new ServerError(message);
  }
}
