import type { ToolLogger } from '../context/ToolContext';
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

/**
 * Logs a member's unexpected failure: what it threw, with its stack; what was wrong with what it
 * returned, in one line naming the place and the fix (its stack would be Toolwright's own frames,
 * which say nothing the message does not).
 */
export function logFailure(logger: ToolLogger, kind: string, name: string, error: unknown): void {
  if (error instanceof UnsendableResult) logger.error(`${kind} '${name}' returned a result that cannot be sent as JSON: ${error.message}`);
  else if (error instanceof MalformedResult) logger.error(`${kind} '${name}' returned a malformed result: ${error.message}`);
  else logger.error(`${kind} '${name}' threw an unexpected error`, error);
}
