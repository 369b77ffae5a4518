import { CallInterrupt, ConfigError } from '@toolwright/core';
import { readClientAnswer } from './clientAnswer';
import type { RoundState } from './RequestStateCodec';
import { RoundTripError } from './RoundTripError';

/** A request the server needs the client to answer before the call can complete (2026-07-28 `inputRequests` entry). */
export interface InputRequest {
  readonly method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  readonly params?: object;
}

/** What ends a round: the questions for the client and the state to echo with the answers. */
export interface PendingRound<Q extends InputRequest = InputRequest> {
  readonly inputRequests: Record<string, Q>;
  readonly state: RoundState;
}

const SHORT: Record<InputRequest['method'], string> = { 'elicitation/create': 'elicit', 'sampling/createMessage': 'sample', 'roots/list': 'roots' };

/**
 * One round of a multi-round-trip request (2026-07-28) as the method runs it. Each time the
 * method asks the client something (`ctx.elicit`, `ctx.sample`, `ctx.listRoots`), `resolve`
 * returns the client's answer when an earlier round got it, or records the question and
 * interrupts the method. Every question asked before the method settles goes out in the same
 * round, so `Promise.all` over several questions asks them together. Questions are keyed by
 * the caller's key or by their position (`elicit-1`, `sample-2`, ...); an answer is reused
 * only for the same question (a fingerprint of the request), so a method that asks something
 * else on a later round is asked again.
 */
export class InputRound<Q extends InputRequest = InputRequest> {
  private readonly answers: Record<string, readonly [string, unknown]> = {};
  private readonly pending: Record<string, Q> = {};
  private readonly asked: Record<string, string> = {};
  private position = 0;
  /** The first of the client's answers found of the wrong shape: it ends the round with -32602, even for a method that swallowed the interrupt. */
  private refusal: RoundTripError | undefined;

  /**
   * @param previous the verified state the client echoed, if this is not the first round
   * @param responses the client's `inputResponses` (untrusted: each is checked before use)
   * @param acceptedOnce whether no other instance of the app can accept `previous` again
   *   (`OpenedState.acceptedOnce`); a state that another could is never counted as `continues`
   */
  constructor(
    private readonly previous: RoundState | undefined,
    private readonly responses: Readonly<Record<string, unknown>> | undefined,
    private readonly acceptedOnce = true,
  ) {}

  /** The client's answer to `request`, or a `CallInterrupt` once the question is recorded. Synchronous on purpose. */
  resolve(request: Q, key?: string): unknown {
    this.position++;
    const k = key ?? `${SHORT[request.method]}-${this.position}`;
    const print = fingerprint(request);
    const earlier = this.previous && Object.hasOwn(this.previous.answers, k) ? this.previous.answers[k] : undefined;
    if (earlier && earlier[0] === print) return this.keep(k, print, earlier[1]);
    if (this.previous?.asked[k] === print && this.responses && Object.hasOwn(this.responses, k)) {
      try {
        return this.keep(k, print, checkResponse(request, k, this.responses[k]));
      } catch (error) {
        if (!(error instanceof RoundTripError)) throw error;
        this.refusal ??= new RoundTripError(`${error.message} Its requestState is used up: start the call again without requestState.`);
        throw new CallInterrupt(this.refusal.message, { cause: this.refusal });
      }
    }
    if (Object.hasOwn(this.pending, k) && this.asked[k] !== print) {
      throw new ConfigError(`Two different questions use the key '${k}' in one round: give each ctx.elicit/sample/listRoots call its own key.`);
    }
    this.pending[k] = request;
    this.asked[k] = print;
    throw new CallInterrupt(`waiting for the client's answer to '${k}' (${request.method})`);
  }

  /** The protocol error that ends this round, when one of the client's answers had the wrong shape. */
  get refused(): RoundTripError | undefined {
    return this.refusal;
  }

  /**
   * Whether this run goes on with a call an earlier round began, bringing an answer to it: the
   * client echoed a verified state with a response to one of that round's questions, or the
   * server kept earlier answers itself (a task's run after its client answered). A state echoed
   * without an answer only runs the method up to the same question again, so it does not count:
   * a run that takes no step toward the end is a call of its own. Nor does a state that another
   * instance of the app could accept again (each instance with its own `usedStates`): each of its
   * runs could be one of many, so each is a call of its own.
   */
  get continues(): boolean {
    const { previous, responses } = this;
    if (previous === undefined || !this.acceptedOnce) return false;
    const asked = Object.keys(previous.asked);
    if (asked.length === 0) return Object.keys(previous.answers).length > 0;
    return responses !== undefined && asked.some((key) => Object.hasOwn(responses, key));
  }

  /** Whether the round ends with a question for the client (or a refused answer) so far, whatever the method returned. */
  get asking(): boolean {
    return this.refusal !== undefined || Object.keys(this.pending).length > 0;
  }

  /** The questions this round asked and the state for the next one, or undefined when it asked none. */
  end(): PendingRound<Q> | undefined {
    if (Object.keys(this.pending).length === 0) return undefined;
    return { inputRequests: this.pending, state: { answers: this.answers, asked: this.asked } };
  }

  private keep(key: string, print: string, answer: unknown): unknown {
    this.answers[key] = [print, answer];
    return answer;
  }
}

/**
 * The answers a caller that keeps them itself (the tasks extension, in its store) already has,
 * as a round's earlier answers: each response is checked as a client's would be (throws a
 * `RoundTripError`), and reused only for the same question.
 */
export function knownAnswers(known: Readonly<Record<string, { readonly request: InputRequest; readonly response: unknown }>>): RoundState['answers'] {
  const answers: Record<string, readonly [string, unknown]> = Object.create(null) as Record<string, readonly [string, unknown]>;
  for (const [key, { request, response }] of Object.entries(known)) {
    answers[key] = [fingerprint(request), checkResponse(request, key, response)];
  }
  return answers;
}

/** A short digest of a question (FNV-1a over its canonical JSON): it only tells questions apart inside signed state. */
function fingerprint(request: InputRequest): string {
  const { elicitationId: _id, ...params } = (request.params ?? {}) as Record<string, unknown>;
  const text = `${request.method} ${canonicalJson(params)}`;
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** JSON with object keys sorted, so equal values give equal text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * Checks one of the client's `inputResponses` against the result its question's method answers
 * with (`readClientAnswer`, as for a 2025-era client's response) and returns the value as the
 * SDK's schema reads it; throws a `RoundTripError` that names the key and the field.
 */
function checkResponse(request: InputRequest, key: string, response: unknown): unknown {
  const read = readClientAnswer(request, response);
  if (read.ok) return read.value;
  throw new RoundTripError(`inputResponses['${key}'] is not a valid ${request.method} result: ${read.problem}.`);
}
