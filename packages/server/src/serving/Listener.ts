/** A running listener (stdio or HTTP). */
export interface Listener {
  /** Stops accepting work, waits for running calls (up to the drain timeout), and closes connections. */
  close(): Promise<void>;
}
