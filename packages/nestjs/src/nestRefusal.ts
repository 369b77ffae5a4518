import { HttpException, type LoggerService } from '@nestjs/common';

/** A refusal of a request to the endpoint, before it is served: its status and JSON-RPC body (id null, as for every HTTP-level refusal). */
export interface GuardRefusal {
  readonly status: number;
  readonly body: { jsonrpc: '2.0'; error: { code: number; message: string }; id: null };
}

/**
 * What the client gets for an error thrown by app code that runs before the endpoint (a global
 * guard, `authInfoFrom`), as Nest's exception handler answers it for a route: an `HttpException`
 * is its status and message; anything else (a plain `Error`, a string, `undefined`) is a 500 with
 * a fixed message, and the log gets the error with `who` threw it on `where`.
 */
export function nestRefusal(error: unknown, who: string, where: string, logger: LoggerService): GuardRefusal {
  if (error instanceof HttpException) {
    const status = error.getStatus();
    if (Number.isInteger(status) && status >= 400 && status <= 599) return refusal(status, messageOf(error));
  }
  logger.error(
    `Toolwright: ${who} threw on ${where}; the MCP endpoint answered 500 (Internal error). Throw an HttpException (e.g. UnauthorizedException) for an answer the client may read.`,
    stackOf(error),
  );
  return { status: 500, body: rpcError(-32603, 'Internal error: the server failed to handle this request. Its log has the details.') };
}

/** A refusal with status and message, code -32000. */
export function refusal(status: number, message: string): GuardRefusal {
  return { status, body: rpcError(-32000, message) };
}

/** An `HttpException`'s message for the client, as Nest sends it for a route: its response's `message`, or its own. */
function messageOf(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown } | null)?.message;
  if (typeof message === 'string') return message;
  if (Array.isArray(message) && message.every((part) => typeof part === 'string')) return message.join('; ');
  return error.message;
}

/** What the log gets of a thrown value: its stack when it has one, else its text (never throws, whatever was thrown). */
function stackOf(error: unknown): string {
  try {
    const stack = (error as { stack?: unknown } | null | undefined)?.stack;
    return typeof stack === 'string' ? stack : String(error);
  } catch {
    return Object.prototype.toString.call(error);
  }
}

function rpcError(code: number, message: string): GuardRefusal['body'] {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}
