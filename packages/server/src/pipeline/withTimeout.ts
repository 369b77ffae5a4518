/**
 * Runs `call` with a timer: after `timeoutMs` the answer is `onTimeout()` (a result, or a
 * rejection) and the call's signal is aborted so the method can stop its work.
 */
export function withTimeout<R>(timeoutMs: number, requestSignal: AbortSignal, call: (signal: AbortSignal) => Promise<R>, onTimeout: () => R | Promise<R>): Promise<R> {
  const timer = new AbortController();
  const signal = AbortSignal.any([requestSignal, timer.signal]);
  let handle: NodeJS.Timeout | undefined;
  const timedOut = new Promise<R>((resolve) => {
    handle = setTimeout(() => {
      timer.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
      resolve(onTimeout());
    }, timeoutMs);
  });
  return Promise.race([call(signal), timedOut]).finally(() => clearTimeout(handle));
}
