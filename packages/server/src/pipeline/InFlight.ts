/** Where the pipeline counts the work of a call, for `app.inFlight` and `app.drain()`. */
export interface InFlight {
  /** Counts `work` until it settles; returns `work` itself. */
  track<T extends Promise<unknown>>(work: T): T;
}
