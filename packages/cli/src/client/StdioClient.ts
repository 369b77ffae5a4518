import { spawn, type ChildProcess } from 'node:child_process';
import { ServerError } from '../cli/UsageError';
import { RpcError } from './RpcError';

/** The revision this client speaks; servers on SDK 1.x answer it or an older one they support. */
export const PROTOCOL_VERSION = '2025-11-25';

export interface StdioClientOptions {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where the server's stderr (its logs) goes. Default: this process's stderr. */
  readonly stderr?: NodeJS.WritableStream;
  /** How long one request may take, in milliseconds. Default 60000. */
  readonly timeoutMs?: number;
  /** Called with each `notifications/message` log entry the server sends. */
  readonly onLog?: (level: string, data: unknown) => void;
}

export interface InitializeResult {
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  serverInfo: { name: string; version: string; title?: string };
  instructions?: string;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * A minimal MCP client over stdio: newline-delimited JSON-RPC with a child process. The CLI
 * speaks the wire protocol itself rather than importing the SDK, which only
 * `@toolwright/server` may do; and a second implementation keeps the server honest.
 * It answers `ping`, refuses other server-to-client requests (it declares no capabilities)
 * and treats anything on stdout that is not JSON-RPC as the server's bug, and says so.
 */
export class StdioClient {
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private buffer = '';
  private stderrTail = '';
  private exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private failure: Error | undefined;
  initialize!: InitializeResult;

  private constructor(
    private readonly child: ChildProcess,
    private readonly options: StdioClientOptions,
  ) {}

  /** Starts the server and completes the `initialize` handshake. */
  static async start(options: StdioClientOptions): Promise<StdioClient> {
    const child = spawn(options.command, [...options.args], { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const client = new StdioClient(child, options);
    client.wire();
    try {
      client.initialize = (await client.request('initialize', {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'toolwright-cli', version: '0' },
      })) as InitializeResult;
    } catch (error) {
      await client.close();
      throw error;
    }
    client.notify('notifications/initialized');
    return client;
  }

  /** Sends a request and waits for its answer; a JSON-RPC error rejects with `RpcError`. */
  request(method: string, params?: Record<string, unknown>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timeoutMs = this.options.timeoutMs ?? 60_000;
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ServerError(`The server did not answer '${method}' within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.pending.set(id, { method, resolve, reject, timer });
      this.send({ jsonrpc: '2.0', id, method, ...(params && { params }) });
    });
  }

  /** Lists every page of a list method (`tools/list`, `prompts/list`...). */
  async listAll<T>(method: string, key: string): Promise<T[]> {
    const items: T[] = [];
    let cursor: string | undefined;
    do {
      const page = (await this.request(method, cursor === undefined ? undefined : { cursor })) as Record<string, unknown>;
      items.push(...((page[key] as T[] | undefined) ?? []));
      cursor = typeof page.nextCursor === 'string' ? page.nextCursor : undefined;
    } while (cursor !== undefined);
    return items;
  }

  notify(method: string, params?: Record<string, unknown>): void {
    this.send({ jsonrpc: '2.0', method, ...(params && { params }) });
  }

  /** Closes stdin (the stdio way to ask a server to stop), then escalates if it lingers. */
  async close(): Promise<void> {
    if (this.exited) return;
    const exit = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin?.end();
    const timer = setTimeout(() => this.child.kill('SIGTERM'), 2000);
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await exit;
    clearTimeout(timer);
    clearTimeout(killer);
  }

  private wire(): void {
    const { child } = this;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.buffer += chunk;
      let newline: number;
      while ((newline = this.buffer.indexOf('\n')) !== -1) {
        const line = this.buffer.slice(0, newline).replace(/\r$/, '');
        this.buffer = this.buffer.slice(newline + 1);
        if (line.trim() !== '') this.receive(line);
      }
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-4000);
      (this.options.stderr ?? process.stderr).write(chunk);
    });
    child.stdin!.on('error', () => undefined); // EPIPE after the server exits; reported through 'exit'.
    child.on('error', (error) => this.fail(new ServerError(`Could not start '${this.options.command}': ${error.message}`, { cause: error })));
    child.on('exit', (code, signal) => {
      this.exited = { code, signal };
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      const tail = this.stderrTail.trim().split('\n').slice(-20).join('\n');
      this.fail(new ServerError(`The server ${how} before answering${tail ? `. Its last words on stderr:\n${tail}` : '.'}`));
    });
  }

  private receive(line: string): void {
    let message: Record<string, unknown>;
    try {
      message = JSON.parse(line) as Record<string, unknown>;
    } catch {
      // stdout belongs to the protocol; a stray console.log there breaks real clients too.
      this.fail(new ServerError(`The server wrote a line to stdout that is not JSON-RPC: ${JSON.stringify(line.slice(0, 200))}. Log to stderr (console.error), never stdout.`));
      return;
    }
    if (typeof message.method === 'string') {
      if (message.id !== undefined) this.answerServerRequest(message.id, message.method);
      else if (message.method === 'notifications/message') {
        const params = (message.params ?? {}) as { level?: string; data?: unknown };
        this.options.onLog?.(params.level ?? 'info', params.data);
      }
      return;
    }
    const pending = typeof message.id === 'number' ? this.pending.get(message.id) : undefined;
    if (!pending) return;
    this.pending.delete(message.id as number);
    clearTimeout(pending.timer);
    if (message.error) {
      const error = message.error as { code: number; message: string; data?: unknown };
      pending.reject(new RpcError(error.code, error.message, error.data));
    } else pending.resolve(message.result);
  }

  private answerServerRequest(id: unknown, method: string): void {
    if (method === 'ping') this.send({ jsonrpc: '2.0', id, result: {} });
    else this.send({ jsonrpc: '2.0', id, error: { code: -32601, message: `toolwright-cli does not support '${method}'` } });
  }

  private send(message: Record<string, unknown>): void {
    if (this.exited || !this.child.stdin?.writable) return;
    this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private fail(error: Error): void {
    this.failure ??= error;
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(this.failure);
      this.pending.delete(id);
    }
  }
}
