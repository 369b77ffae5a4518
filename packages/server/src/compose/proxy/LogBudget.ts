/** Log lines an upstream session passes on per second at most unless the proxy's `maxLogLinesPerSecond` says otherwise; the rest of a burst is dropped and counted. */
export const DEFAULT_LOG_LINES_PER_SECOND = 100;

/**
 * Bounds the upstream's `notifications/message` passed on to a downstream client: at most
 * `perSecond` in each second, so a flooding upstream cannot flood the client (nor the parent's
 * transport). The lines dropped are counted, for one note in their place.
 */
export class LogBudget {
  private windowStart = 0;
  private passed = 0;
  private dropped = 0;

  constructor(
    private readonly label: string,
    private readonly perSecond = DEFAULT_LOG_LINES_PER_SECOND,
  ) {}

  /** Whether a line may go now; a line that may not is counted as dropped. */
  take(now = Date.now()): boolean {
    if (now - this.windowStart >= 1000) {
      this.windowStart = now;
      this.passed = 0;
    }
    if (this.passed < this.perSecond) {
      this.passed++;
      return true;
    }
    this.dropped++;
    return false;
  }

  /** The note for the lines dropped since the last note (undefined when none were), counted afresh from now. */
  note(): string | undefined {
    if (this.dropped === 0) return undefined;
    const note = `${this.dropped} log messages from ${this.label} dropped: it sent more than ${this.perSecond} a second`;
    this.dropped = 0;
    return note;
  }
}
