import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

/**
 * A round of a multi-round-trip request (2026-07-28) that cannot be accepted: a `requestState`
 * that is modified, foreign, expired or replayed, or an `inputResponses` entry of the wrong
 * shape. The client gets JSON-RPC error -32602 (invalid params) with this message.
 */
export class RoundTripError extends ProtocolError {
  constructor(message: string) {
    super(ErrorCodes.InvalidParams, message);
  }
}
