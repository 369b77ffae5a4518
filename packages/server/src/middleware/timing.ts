import type { MemberCall, MiddlewareFn, ToolLogger } from '@toolwright/core';

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
  /** `ok`: a result; `isError`: a tool result with `isError: true`; `threw`: an error went on outward. */
  readonly outcome: 'ok' | 'isError' | 'threw';
}

/**
 * Logs every call it wraps with its duration and outcome: `tool 'search' ok in 3.1 ms`,
 * with a `CallTiming` as the data (info for `ok`, warn otherwise). Put it first in
 * `AppOptions.middleware` to time everything inside it.
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
      logger[outcome === 'ok' ? 'info' : 'warn'](`${call.kind} '${call.name}' ${outcome} in ${durationMs} ms`, data);
    };
    try {
      const result = await next();
      report((result as { isError?: unknown } | undefined)?.isError === true ? 'isError' : 'ok');
      return result;
    } catch (error) {
      report('threw');
      throw error;
    }
  };
}
