import { ToolwrightError } from './ToolwrightError';

const BRAND = Symbol.for('toolwright.callInterrupt');

/**
 * Thrown out of a tool, prompt or resource method by the framework's own `ctx` (never by
 * app code) to end the call with a protocol answer instead of a result: on a 2026-07-28
 * request, `ctx.elicit`, `ctx.sample` and `ctx.listRoots` end the round with an
 * `input_required` result, and the method runs again when the client answers. The invokers
 * pass it on instead of turning it into an error result; app code that catches errors
 * around those calls should rethrow it (`CallInterrupt.is(error)`).
 */
export class CallInterrupt extends ToolwrightError {
  readonly [BRAND] = true;

  static override is(value: unknown): value is CallInterrupt {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}
