import { jsonProblem } from './jsonProblem';

/** A member's result that JSON cannot carry (`jsonProblem` says where); its call is answered as failed. */
export class UnsendableResult extends TypeError {
  override readonly name = 'UnsendableResult';
}

/**
 * `result` as it is when JSON can carry it; otherwise throws an `UnsendableResult` naming
 * the problem, so the call is answered as failed. Left to `JSON.stringify` in a transport,
 * the same problem would leave the request without any answer.
 */
export function sendable<T>(result: T, name = 'result'): T {
  const problem = jsonProblem(result, name);
  if (problem !== undefined) throw new UnsendableResult(problem);
  return result;
}

/** How a member's unexpected failure is logged: what it threw, or what was wrong with what it returned. */
export function failureNote(kind: string, name: string, error: unknown): string {
  return error instanceof UnsendableResult ? `${kind} '${name}' returned a result that cannot be sent as JSON` : `${kind} '${name}' threw an unexpected error`;
}
