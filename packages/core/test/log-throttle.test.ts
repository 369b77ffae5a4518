import { LogThrottle } from '@toolwright/core/internal';

/**
 * `LogThrottle`'s counts are reported once each: when the window is over (the next line of
 * the kind, or the timer), or by `flush` (shutdown, or process exit with `flushAtExit`),
 * whichever comes first. log-counts-at-exit.test.ts runs the exit in a real process.
 */
describe('LogThrottle', () => {
  let now = 0;
  let reports: string[];
  const throttle = (flushAtExit: boolean) =>
    new LogThrottle(
      (key, count) => reports.push(`${key} ${count}`),
      { windowMs: 1_000, burst: 2, flushAtExit },
      () => now,
    );
  beforeEach(() => {
    jest.useFakeTimers();
    now = 0;
    reports = [];
  });
  afterEach(() => jest.useRealTimers());

  it.each([false, true])('reports a count once, when the window is over, and not again on flush (flushAtExit: %s)', (atExit) => {
    const log = throttle(atExit);
    expect([1, 2, 3, 4, 5].map(() => log.admit('boom'))).toEqual([true, true, false, false, false]);
    expect(reports).toEqual([]);
    now = 1_000;
    jest.advanceTimersByTime(1_000);
    expect(reports).toEqual(['boom 3']);
    log.flush();
    expect(reports).toEqual(['boom 3']);
  });

  it('reports a count still pending on flush, one line per kind', () => {
    const log = throttle(true);
    for (let i = 0; i < 4; i++) log.admit('a');
    for (let i = 0; i < 3; i++) log.admit('b');
    log.admit('c');
    log.flush();
    expect(reports).toEqual(['a 2', 'b 1']);
    jest.advanceTimersByTime(5_000);
    expect(reports).toEqual(['a 2', 'b 1']);
  });
});
