import { pathToFileURL } from 'node:url';
import { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport, DEFAULT_REQUEST_TIMEOUT_MSEC, type Transport } from '@modelcontextprotocol/client';
import type { Io } from '../cli/Io';
import { ServerError } from '../cli/UsageError';
import { cliVersion } from '../generate/packageRoot';
import { ChildProcessTransport } from './ChildProcessTransport';
import { BEARER_ENV } from './bearerToken';
import { limitedFetch } from './limitedFetch';
import type { ServerRequestAnswers } from './ServerRequestAnswers';
import type { ProtocolChoice, ServerTarget } from './ServerTarget';

export interface ClientOptions {
  readonly verbose?: boolean;
  readonly timeoutMs?: number;
  /** Answers to elicitation and sampling; without them the client declares neither capability. */
  readonly answers?: ServerRequestAnswers;
  /** How to pick the protocol era (default 'auto': modern when the server offers it). */
  readonly protocol?: ProtocolChoice;
  /** What `work` does, for its error message, e.g. "tools/call 'greet'". */
  readonly what?: string;
}

/**
 * Connects the SDK's client to the server (starting it for stdio), runs `work`, and always
 * disconnects (stopping a started server). The client negotiates like any SDK v2 client:
 * the 2026-07-28 era when the server offers it, else the 2025 handshake. The server's own
 * stderr is shown only with `verbose` (or, when it fails, in the error).
 */
export async function withClient<T>(target: ServerTarget, io: Io, options: ClientOptions, work: (client: Client) => Promise<T>): Promise<T> {
  const answers = options.answers;
  const client = new Client(
    { name: 'toolwright-cli', version: cliVersion() },
    {
      capabilities: answers ? { elicitation: { form: {} }, sampling: {}, roots: {} } : {},
      versionNegotiation: { mode: options.protocol ?? 'auto' },
    },
  );
  if (answers) {
    client.setRequestHandler('elicitation/create', (request) => answers.elicit(request.params));
    client.setRequestHandler('sampling/createMessage', (request) => answers.sample(request.params));
    client.setRequestHandler('roots/list', () => ({ roots: [{ uri: pathToFileURL(io.cwd).href, name: 'working directory' }] }));
  }
  // A refused answer ends the connection: the requests waiting on it fail now, with the reason.
  const limited = limitedFetch(target.shown, undefined, () => void transport.close().catch(() => undefined));
  const transport: Transport =
    target.kind === 'stdio'
      ? new ChildProcessTransport({ command: target.command, args: target.args, cwd: target.cwd, stderr: options.verbose ? io.stderr : undefined })
      : new StreamableHTTPClientTransport(target.url, { requestInit: { headers: { ...target.headers } }, fetch: limited.fetch });
  const failure = (error: unknown, what: string): Error => {
    if (transport instanceof ChildProcessTransport && transport.failure) return transport.failure;
    if (limited.failure) return limited.failure;
    const status = httpStatusOf(error);
    if (target.kind === 'http' && status === 401) {
      const sent = Object.keys(target.headers).some((h) => h.toLowerCase() === 'authorization');
      return new ServerError(
        `${target.shown} requires authorization (HTTP 401)${sent ? ' and refused the credentials sent' : ''}: put a token in ${BEARER_ENV} (${BEARER_ENV}=<token> toolwright ...) or in a variable named by --bearer-env NAME.`,
      );
    }
    if (target.kind === 'http' && status === 403) return new ServerError(`${target.shown} refused the request (HTTP 403): the token lacks a scope or role it needs.`);
    if (error instanceof ProtocolError) return new ServerError(`${what}: ${error.message} (JSON-RPC error ${error.code})`);
    if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
      const waited = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
      return new ServerError(
        `${what}: no answer within ${waited} ms${target.kind === 'http' ? ` from ${target.shown}` : ''}. If the server is slow, raise --timeout <ms>${target.kind === 'stdio' ? '; run with --verbose to see its log (stderr)' : ''}.`,
      );
    }
    if (error instanceof SdkError || error instanceof TypeError) return new ServerError(`${what}: ${error.message}${target.kind === 'http' ? ` (${target.shown})` : ''}`);
    return error instanceof Error ? error : new Error(String(error));
  };
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
  } catch (error) {
    const reason = failure(error, 'The server could not be reached');
    await client.close().catch(() => undefined);
    throw reason;
  }
  try {
    return await work(client);
  } catch (error) {
    throw failure(error, `${options.what ?? 'The request'} failed`);
  } finally {
    await client.close();
  }
}

/** The HTTP status an SDK client error carries (`SdkHttpError.status`, `data.status`), or one named in its message. */
function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const direct = (error as { status?: unknown }).status ?? (error as { data?: { status?: unknown } }).data?.status;
  if (typeof direct === 'number') return direct;
  if ((error as { name?: unknown }).name === 'UnauthorizedError') return 401;
  const named = /\b(?:HTTP |status )(40[13])\b/.exec(String((error as { message?: unknown }).message));
  return named ? Number(named[1]) : undefined;
}
