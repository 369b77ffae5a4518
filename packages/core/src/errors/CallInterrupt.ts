import { ToolwrightError } from './ToolwrightError';

/**
 * Thrown out of a tool, prompt or resource method by the framework's own `ctx` (never by
 * app code) to end the call with a protocol answer instead of a result: on a 2026-07-28
 * request, `ctx.elicit`, `ctx.sample` and `ctx.listRoots` end the round with an
 * `input_required` result, and the method runs again when the client answers; on a 2025-era
 * request, a wait for the client's answer to one of them ends with it when the call ends first
 * (cancelled, timed out, its connection closed), its message saying why. The invokers pass it
 * on instead of turning it into an error result (nor do they log it); app code that catches
 * errors around those calls should rethrow it (`CallInterrupt.is(error)`).
 */
export class CallInterrupt extends ToolwrightError {
  static override readonly KIND = 'interrupt' as const;
}
