import { jsonProblem } from './jsonProblem';
import { MalformedResult } from './MalformedResult';

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

/**
 * `JSON.stringify(value)` of a member's plain result (JSON text the server builds from it); what
 * JSON cannot carry (a BigInt, a cycle, a `toJSON()` that throws) throws an `UnsendableResult`
 * naming where, as `sendable` does, and so does what it writes as `{}` though it holds data (a Map,
 * a Promise not awaited). The walk runs only once `JSON.stringify` has thrown or written a `{}`.
 */
export function jsonTextOf(value: unknown, name = 'result'): string | undefined {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new UnsendableResult(jsonProblem(value, name) ?? `${name} cannot be written as JSON: ${(error as Error).message}`);
  }
  if (text !== undefined && text.includes('{}')) {
    const problem = jsonProblem(value, name);
    if (problem !== undefined) throw new UnsendableResult(problem);
  }
  return text;
}

/** How a member's unexpected failure is logged: what it threw, or what was wrong with what it returned. */
export function failureNote(kind: string, name: string, error: unknown): string {
  if (error instanceof UnsendableResult) return `${kind} '${name}' returned a result that cannot be sent as JSON`;
  if (error instanceof MalformedResult) return `${kind} '${name}' returned a malformed result`;
  return `${kind} '${name}' threw an unexpected error`;
}
