import type { InputRequest, ServerContext } from '../sdk/sdk';
import type { InputRound } from '../roundtrip/InputRound';
import type { RequestStateCodec, RoundState } from '../roundtrip/RequestStateCodec';
import { KNOWN_ANSWERS } from '../roundtrip/knownAnswersKey';
import { RoundTripError } from '../roundtrip/RoundTripError';
import { roundCaller } from '../roundtrip/roundCaller';
import { roundBinding, runRound, type InputRequiredAnswer } from '../roundtrip/runRound';
import type { Connection } from './Connection';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';

/** A round whose questions are the SDK's input requests (elicitation, sampling, roots). */
export type SdkRound = InputRound<InputRequest>;

/**
 * Runs a method that may ask the client something. On a 2025-era request, as is: its `ctx`
 * questions are requests to the client. On a 2026-07-28 request, as one round of a
 * multi-round-trip request (`runRound`): the echoed `requestState` is verified, the method runs
 * with the round its `ctx` asks through, and the answer is its result or `input_required`.
 * A refused state or answer is JSON-RPC -32602, and so is a next state too large for the
 * client to send back over the connection's transport (`Connection.maxRequestBytes`).
 */
export function runWithRounds<R>(
  connection: Connection,
  sdk: ServerContext,
  codec: RequestStateCodec,
  method: string,
  target: string,
  args: unknown,
  run: (round: SdkRound | undefined) => Promise<R>,
): Promise<R | InputRequiredAnswer<InputRequest>> {
  if (connection.era !== 'modern') return run(undefined);
  const { mcpReq } = sdk;
  const known = (mcpReq as { [KNOWN_ANSWERS]?: RoundState['answers'] })[KNOWN_ANSWERS];
  const request = {
    requestState: mcpReq.requestState(),
    inputResponses: mcpReq.inputResponses,
    // With known answers the state is an extension's (a task's, kept in its store): only a state the client echoes must fit its retry.
    ...(known ? { known } : { maxRequestBytes: connection.maxRequestBytes, meta: [mcpReq._meta, mcpReq.envelope] }),
  };
  return runRound<R, InputRequest>(codec, request, roundBinding(method, target, args, roundCaller(sdk.http?.authInfo)), run).catch((error: unknown) => {
    throw error instanceof RoundTripError ? new ProtocolError(ErrorCodes.InvalidParams, error.message) : error;
  });
}
