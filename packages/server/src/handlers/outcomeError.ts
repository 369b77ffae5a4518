import type { MemberErrorKind } from '@toolwright/core/internal';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

const CODES: Record<MemberErrorKind, number> = {
  not_found: ErrorCodes.ResourceNotFound,
  invalid_params: ErrorCodes.InvalidParams,
  internal: ErrorCodes.InternalError,
};

/** The JSON-RPC error for a failed resource read, prompt or completion. */
export function outcomeError(failure: { error: MemberErrorKind; message: string }, data?: unknown): ProtocolError {
  return new ProtocolError(CODES[failure.error], failure.message, data);
}
