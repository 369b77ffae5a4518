import { CallInterrupt, type MemberCall, type MiddlewareFn, type ToolLogger } from '@toolwright/core';
import { callRound } from '../pipeline/callRound';

export interface TimingOptions {
  /** Where each call is reported. Default: the app's logger (`AppOptions.logger`, stderr unless set). Never stdout. */
  readonly logger?: ToolLogger;
  /** Milliseconds with a fraction; default `performance.now`. */
  readonly clock?: () => number;
}

/** What `timing()` logs for one call, as the log line's data. */
export interface CallTiming {
  readonly kind: MemberCall['kind'];
  readonly name: string;
  readonly requestId: string | number;
  readonly durationMs: number;
  /**
   * `ok`: a result; `isError`: a tool result with `isError: true`; `threw`: an error went on
   * outward; `interrupted`: the call ended without the method's answer, and nothing failed (a
   * 2026-07-28 round that asks the client something, a cancel, a timeout: see `CallInterrupt`).
   */
  readonly outcome: 'ok' | 'isError' | 'threw' | 'interrupted';
}

/**
 * Logs every call it wraps with its duration and outcome: `tool 'search' ok in 3.1 ms`,
 * with a `CallTiming` as the data (info for `ok` and `interrupted`, warn otherwise and for a
 * call its timeout ended). Put it first in `AppOptions.middleware` to time everything inside it.
 *
 * @example
 * createApp({ ..., middleware: [timing()] })
 */
export function timing(options: TimingOptions = {}): MiddlewareFn {
  const clock = options.clock ?? (() => performance.now());
  return async function timing(call, next) {
    const logger = options.logger ?? call.logger;
    const started = clock();
    const report = (outcome: CallTiming['outcome']) => {
      const durationMs = Math.round((clock() - started) * 1000) / 1000;
      const data: CallTiming = { kind: call.kind, name: call.name, requestId: call.requestId, durationMs, outcome };
      // A call its timeout ended is worth a warning: its client got an error.
      const quiet = outcome === 'ok' || (outcome === 'interrupted' && (call.signal?.reason as { name?: unknown } | undefined)?.name !== 'TimeoutError');
      logger[quiet ? 'info' : 'warn'](`${call.kind} '${call.name}' ${outcome} in ${durationMs} ms`, data);
    };
    try {
      const result = await next();
      report(interrupted(call) ? 'interrupted' : (result as { isError?: unknown } | undefined)?.isError === true ? 'isError' : 'ok');
      return result;
    } catch (error) {
      report(CallInterrupt.is(error) || interrupted(call) ? 'interrupted' : 'threw');
      throw error;
    }
  };
}

/**
 * Whether the call ended without the method's answer, whatever the method did then: its client
 * cancelled it or its timeout passed (a method may stop by throwing its signal's reason, or return
 * what it has), or its 2026-07-28 round asks the client something (a method may catch the interrupt).
 */
function interrupted(call: MemberCall): boolean {
  return call.signal?.aborted === true || callRound(call)?.asking === true;
}
