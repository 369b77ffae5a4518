import { CallInterrupt, ToolError, type ToolLogger } from '@toolwright/core';
import type { MemberErrorKind } from '@toolwright/core/internal';
import { INVALID_RESULT, UpstreamClosedError } from './UpstreamSession';
import { UpstreamPoolFullError } from './UpstreamPoolFullError';
import { UpstreamTooLargeError } from './UpstreamTooLargeError';

/** Why an upstream request failed, in words for the downstream client, and what kind of protocol error it is. */
export interface UpstreamFailure {
  readonly message: string;
  readonly kind: MemberErrorKind;
}

/**
 * Describes what an upstream request threw. A 2026-07-28 round's interrupt is thrown on (it
 * ends the downstream call with `input_required`). Nothing from the upstream's internals but
 * the first line of its JSON-RPC error message goes to the client: any other failure (an HTTP
 * error answer's body, a network error, what `credentials` threw) may hold secrets, so the
 * client gets its HTTP status at most, and `logger` the whole message. `timeoutOption` names
 * the option whose timeout bounded the request.
 */
export function upstreamFailure(
  upstream: string,
  what: string,
  error: unknown,
  signal: AbortSignal | undefined,
  logger: ToolLogger,
  timeoutOption: 'requestTimeoutMs' | 'listTimeoutMs' = 'requestTimeoutMs',
): UpstreamFailure {
  if (CallInterrupt.is(error)) throw error;
  if (ToolError.is(error)) return { message: error.message, kind: 'internal' };
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e?.message === 'string' ? e.message : String(error);
  if (typeof e?.code === 'number') {
    const kind: MemberErrorKind = e.code === -32002 ? 'not_found' : e.code === -32602 ? 'invalid_params' : 'internal';
    return { message: `${upstream} refused ${what}: ${firstLine(message)} (JSON-RPC ${e.code}).${e.code === URL_ELICITATION_REQUIRED ? urlsToOpen(error) : ''}`, kind };
  }
  if (signal?.aborted) return { message: `${what} was cancelled before ${upstream} answered.`, kind: 'internal' };
  if (error instanceof UpstreamTooLargeError) {
    return {
      message: `${upstream} sent a message larger than the proxy reads (maxMessageBytes, ${error.limit} bytes) while answering ${what}, so the proxy closed that connection. Raise the proxy's maxMessageBytes, or have the upstream return less; the next request opens another connection.`,
      kind: 'internal',
    };
  }
  if (error instanceof UpstreamPoolFullError) {
    logger.warn(`${upstream}: ${what} was not sent: ${message}`);
    return {
      message: `${upstream} was not asked for ${what}: the proxy has as many upstream sessions open as its maxSessions allows (${error.limit}). Try again once another client has finished; if this happens often, raise the proxy's maxSessions.`,
      kind: 'internal',
    };
  }
  if (error instanceof UpstreamClosedError || e?.code === 'CONNECTION_CLOSED' || e?.code === 'NOT_CONNECTED') {
    return { message: `${upstream} closed the connection before answering ${what}. The proxy reconnects on the next request: try again.`, kind: 'internal' };
  }
  if (e?.code === INVALID_RESULT) {
    return { message: `${upstream} answered ${what} with a result that is not valid MCP (${squeezed(message)}). Ask the upstream's maintainers to fix it.`, kind: 'internal' };
  }
  if (e?.code === 'REQUEST_TIMEOUT') return { message: `${upstream} did not answer ${what} in time (${timeoutOption}). Try again, or raise the proxy's ${timeoutOption}.`, kind: 'internal' };
  logger.warn(`${upstream}: ${what} failed: ${message}`);
  const status = (error as { data?: { status?: unknown } })?.data?.status;
  return {
    message: `${upstream} could not be reached for ${what}${typeof status === 'number' ? ` (HTTP ${status})` : ''}. Check that it is running; the proxy retries on the next request, and its log has the details.`,
    kind: 'internal',
  };
}

/**
 * The first line of an upstream's JSON-RPC error message, at most 300 characters: what it says
 * went wrong, without the stack trace or dump an upstream may put on the lines after it.
 */
function firstLine(message: string): string {
  return cut(message.split(/[\n\r\u2028\u2029]/, 1)[0]!.trim());
}

function cut(line: string): string {
  return line.length > 300 ? `${line.slice(0, 300)}...` : line;
}

/** An SDK message for a client: its schema problems squeezed onto one line, at most 300 characters. */
function squeezed(message: string): string {
  return cut(message.replace(/\s+/g, ' '));
}

/** JSON-RPC error of a call that needs the user to open a URL first (2025-11-25 URL-mode elicitation). */
const URL_ELICITATION_REQUIRED = -32042;

/** The http(s) URLs a -32042 error asks the user to open (at most three), as a sentence; empty when it names none. */
function urlsToOpen(error: unknown): string {
  const data = (error as { data?: { elicitations?: unknown } }).data;
  const listed = Array.isArray(data?.elicitations) ? (data.elicitations as unknown[]) : [];
  const urls = listed
    .map((item) => (typeof item === 'object' && item !== null ? (item as { url?: unknown }).url : undefined))
    .filter((url): url is string => typeof url === 'string' && /^https?:\/\//.test(url))
    .slice(0, 3);
  return urls.length === 0 ? '' : ` The user must open ${urls.join(', ')} first, then call again.`;
}
