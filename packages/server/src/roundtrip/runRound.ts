import { CallInterrupt, ToolwrightError } from '@toolwright/core';
import { canonicalJson, InputRound, type InputRequest, type PendingRound } from './InputRound';
import type { RequestStateCodec, RoundState } from './RequestStateCodec';
import { RoundTripError } from './RoundTripError';
import { retryRoom } from './StateRoom';

/** A 2026-07-28 `input_required` result: the client answers `inputRequests` and retries with `requestState`. */
export type InputRequiredAnswer<Q extends InputRequest = InputRequest> = {
  resultType: 'input_required';
  inputRequests: Record<string, Q>;
  requestState: string;
};

/** What a round reads from the request: the state the client echoed and its answers (both untrusted). */
export interface RoundRequest {
  readonly requestState?: unknown;
  readonly inputResponses?: unknown;
  /** Answers the server kept itself (trusted, see `knownAnswers`), reused as earlier rounds' answers. */
  readonly known?: RoundState['answers'];
  /**
   * The most bytes the client's retry may hold on the transport the request came in on (an HTTP
   * endpoint's `maxBodyBytes`, a stdio line): the next state, echoed in it, must leave room for
   * what the retry repeats. Undefined: no such limit (or the state does not go to the client).
   */
  readonly maxRequestBytes?: number;
  /** The request's `_meta` (and envelope), which the retry repeats: counted against `maxRequestBytes`. */
  readonly meta?: unknown;
}

/**
 * What a `requestState` is bound to within its app: the method, its target (tool or prompt
 * name, resource URI), the arguments, and the caller (`roundCaller`: client and subject). The
 * codec adds the app that issued it (`RequestStateCodec`'s `issuer`). A state issued for one of
 * them is refused for any other.
 */
export function roundBinding(method: string, target: string, args: unknown, caller: string | undefined): string {
  return `${method}\n${target}\n${canonicalJson(args ?? {})}\n${caller ?? ''}`;
}

/**
 * Runs one round of a 2026-07-28 request: verifies the echoed state, runs the method with an
 * `InputRound` its `ctx` asks through, and answers with the method's result, or, when the
 * method asked something the client has not answered yet, with an `input_required` result and
 * a newly sealed state. The method's `CallInterrupt` ends there; one whose cause is a protocol
 * error (a missing client capability) is answered with that error. Throws `RoundTripError` for
 * a bad state or bad `inputResponses`, an answer of the wrong shape included, whatever the method
 * did with it, and for a next state too large for the client's retry to carry (`maxRequestBytes`,
 * `requestState.maxBytes`) (JSON-RPC -32602).
 */
export async function runRound<R, Q extends InputRequest = InputRequest>(
  codec: RequestStateCodec,
  request: RoundRequest,
  binding: string,
  run: (round: InputRound<Q>) => Promise<R>,
): Promise<R | InputRequiredAnswer<Q>> {
  const { requestState, inputResponses } = request;
  if (inputResponses !== undefined && (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses))) {
    throw new RoundTripError('inputResponses must be an object mapping the keys of the last inputRequests to their results.');
  }
  const opened = requestState === undefined ? undefined : await codec.open(requestState, binding);
  const { known } = request;
  const previous = known ? { answers: { ...known, ...opened?.answers }, asked: opened?.asked ?? {} } : opened;
  // Answers the server kept itself are its own; an echoed state, only as sure as its claim.
  const round = new InputRound<Q>(previous, inputResponses as Record<string, unknown> | undefined, opened?.acceptedOnce ?? true);
  let result: R;
  try {
    result = await run(round);
  } catch (error) {
    // An answer of the wrong shape ends the round with -32602, whatever the method made of its interrupt.
    if (round.refused) throw round.refused;
    if (!CallInterrupt.is(error)) throw error;
    if (error.cause !== undefined) throw error.cause;
    const pending = round.end();
    if (!pending) throw new ToolwrightError(`A CallInterrupt ended the method without asking the client anything: only Toolwright's ctx throws it. (${error.message})`);
    return inputRequired(codec, pending, binding, request);
  }
  // A method that caught the interrupt still ends the round with the question it asked, or with the refusal of an answer.
  if (round.refused) throw round.refused;
  const pending = round.end();
  return pending ? inputRequired(codec, pending, binding, request) : result;
}

async function inputRequired<Q extends InputRequest>(codec: RequestStateCodec, pending: PendingRound<Q>, binding: string, request: RoundRequest): Promise<InputRequiredAnswer<Q>> {
  const { maxRequestBytes, meta } = request;
  const retry = maxRequestBytes === undefined ? undefined : () => retryRoom(maxRequestBytes, binding, meta);
  return { resultType: 'input_required', inputRequests: pending.inputRequests, requestState: await codec.seal(pending.state, binding, retry) };
}
