/** Milliseconds on a clock that only moves forward: `Date.now` by default; tests pass a fake one. */
export type Clock = () => number;
