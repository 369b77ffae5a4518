import { CallInterrupt, ResourceNotFoundError, ToolError, type MiddlewareFn } from '@toolwright/core';
import { toolFailure } from '@toolwright/core/internal';
import { subjectOf } from './subjectOf';

/**
 * Turns what the members inside it throw into the answer the framework would give, so the
 * middleware outside sees a result rather than an exception: a tool gets the same safe
 * `isError` result as a method that throws (a `ToolError`'s message shown, anything else
 * "failed with an internal error" and logged). A resource read or prompt has no error
 * results: a `ToolError` or `ResourceNotFoundError` goes on as it is, anything else is
 * logged and goes on as a `ToolError` with the safe message (the client gets a JSON-RPC
 * error that gives nothing away).
 *
 * @example
 * createApp({ ..., middleware: [timing(), normalizeErrors()] })   // timing sees every outcome as a result
 */
export function normalizeErrors(): MiddlewareFn {
  return async function normalizeErrors(call, next) {
    try {
      return await next();
    } catch (error) {
      if (call.kind === 'tool') return toolFailure(call.name, error, call.logger);
      if (CallInterrupt.is(error) || ToolError.is(error) || ResourceNotFoundError.is(error)) throw error;
      call.logger.error(`${subjectOf(call)} threw an unexpected error`, error);
      throw new ToolError(`The ${subjectOf(call)} failed with an internal error. The server log has the details.`);
    }
  };
}
