import { ProtocolError } from '../sdk/ProtocolError';

/**
 * Whether an extension's error goes to the client as it is: a `ProtocolError`, or an error whose
 * number `code` is one of JSON-RPC's own (-32768 to -32000), which only code that speaks
 * JSON-RPC gives (a task store saying it is unreachable). Any other error (a gRPC status, an
 * HTTP client's, a plain `Error`) is answered -32603 without its message: that may name a host,
 * a path or a secret.
 */
export function sentAsIs(error: unknown): error is Error {
  if (ProtocolError.is(error)) return true;
  const code = (error as { code?: unknown } | null | undefined)?.code;
  return error instanceof Error && typeof code === 'number' && Number.isInteger(code) && code >= -32768 && code <= -32000;
}
