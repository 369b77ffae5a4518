import type { InFlight } from './InFlight';

/**
 * Counts one call in `inFlight` from now (the server accepted it) until the answer `serve` gives
 * has settled and every piece of work it tracked in `runs` has too: the runs an extension starts
 * for the call (its `next()`, a task's run and the write of its outcome) count within the call,
 * not again, and a run that outlives the answer keeps the call counted. A run started once the
 * call is no longer counted (an extension's `next()` after it answered, with nothing else of the
 * call pending) counts in `inFlight` on its own.
 */
export function countCall<T>(inFlight: InFlight, serve: (runs: InFlight) => Promise<T>): Promise<T> {
  let pending = 1;
  let finish: () => void = () => undefined;
  void inFlight.track(new Promise<void>((resolve) => (finish = resolve)));
  const settle = () => {
    if (--pending === 0) finish();
  };
  const runs: InFlight = {
    track(work) {
      // The call's count already ended: `finish` told `inFlight` so, and a count started again here would not reach it.
      if (pending === 0) return inFlight.track(work);
      pending++;
      work.then(settle, settle);
      return work;
    },
  };
  let answer: Promise<T>;
  try {
    answer = serve(runs);
  } catch (error) {
    answer = Promise.reject(error as Error);
  }
  answer.then(settle, settle);
  return answer;
}
