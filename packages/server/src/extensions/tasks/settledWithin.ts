import type { ToolLogger } from '@toolwright/core';

/** Work of the tasks extension that its stop waits for: what it is, when it ends, and the task it holds meanwhile. */
export interface StopWait {
  /** Names it in the log: "the queue worker". */
  readonly name: string;
  /** Settles when it ended; never rejects. */
  readonly settled: Promise<void>;
  /** The id of the task it holds now (taken from the queue, or being claimed), if any. */
  readonly holding: () => string | undefined;
}

/**
 * Waits until every one of `waits` settled, or `timeoutMs` passed: then each still running is
 * named in a warning, with the task it holds, since that task may not be back on the queue (a
 * store that does not answer, say while it reconnects, must not hold the app's stop forever).
 */
export async function settledWithin(timeoutMs: number, waits: readonly StopWait[], logger: ToolLogger): Promise<void> {
  const pending = new Set(waits);
  for (const wait of waits) void wait.settled.then(() => pending.delete(wait));
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
  });
  try {
    await Promise.race([Promise.all(waits.map((w) => w.settled)), timedOut]);
  } finally {
    clearTimeout(timer);
  }
  for (const wait of pending) {
    const id = wait.holding();
    logger.warn(
      `tasks: the app stopped without waiting longer than ${timeoutMs} ms for ${wait.name}, whose store did not answer` +
        (id === undefined ? '.' : `: task ${id} may not be back on the queue (a sweep starts it again once its heartbeat is older than heartbeatTimeoutMs). Check the store's connection.`),
    );
  }
}
