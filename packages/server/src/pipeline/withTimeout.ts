import { CallInterrupt } from '@toolwright/core';

/**
 * Runs `call` until it settles or its request ends. After `timeoutMs` (when there is one) the
 * answer is `onTimeout()` (a result, or a rejection) and the call's signal is aborted so the
 * method can stop its work. Once the request's signal aborts (the client cancelled, the
 * connection closed), the wait ends with a `CallInterrupt` (the SDK sends nothing for an
 * aborted request): a method that ignores its signal never holds the request, its count in
 * flight or its per-call state.
 */
export function withTimeout<R>(timeoutMs: number | undefined, requestSignal: AbortSignal, call: (signal: AbortSignal) => Promise<R>, onTimeout: () => R | Promise<R>): Promise<R> {
  const timer = new AbortController();
  const signal = timeoutMs === undefined ? requestSignal : AbortSignal.any([requestSignal, timer.signal]);
  let handle: NodeJS.Timeout | undefined;
  let cancelled: (() => void) | undefined;
  const ended = new Promise<R>((resolve, reject) => {
    if (timeoutMs !== undefined) {
      handle = setTimeout(() => {
        timer.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError'));
        resolve(onTimeout());
      }, timeoutMs);
    }
    cancelled = () => reject(new CallInterrupt('The call ended (cancelled or disconnected) before its method did.', { cause: requestSignal.reason }));
    if (requestSignal.aborted) cancelled();
    else requestSignal.addEventListener('abort', cancelled, { once: true });
  });
  return Promise.race([call(signal), ended]).finally(() => {
    clearTimeout(handle);
    requestSignal.removeEventListener('abort', cancelled!);
  });
}
