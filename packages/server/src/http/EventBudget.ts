/**
 * Bytes of events that several `InMemoryEventStore`s (the sessions of one endpoint) may keep
 * together. A store that would take the total past `maxBytes` drops its own oldest events
 * first, never another session's; if it holds none, the new event is sent but not kept.
 */
export class EventBudget {
  /** Bytes the stores sharing it keep now. */
  used = 0;
  /** Bytes the stores sharing it may keep together. */
  readonly maxBytes: number;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }
}
