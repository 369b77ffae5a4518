/** Output held back (a log's counts of left-out lines) that is to be written before the process ends. */
export interface Flushable {
  flush(): void;
}

/** What is pending now: each entry removes itself once it has nothing left to write. */
const pending = new Set<Flushable>();
let listening = false;

/**
 * Has `target.flush()` run when the process exits, unless `forgetAtExit(target)` came first.
 * One `exit` listener serves every target of the process, added the first time one is
 * pending; no timer, so nothing here keeps the process up. Where there is no `process`
 * (Workers, a browser) nothing runs at exit, and nothing is kept.
 */
export function flushAtExit(target: Flushable): void {
  if (!listening) {
    const proc = (globalThis as { process?: { on?: (event: 'exit', listener: () => void) => unknown } }).process;
    if (typeof proc?.on !== 'function') return;
    listening = true;
    proc.on('exit', flushPending);
  }
  pending.add(target);
}

/** `target` has nothing left to write at exit. */
export function forgetAtExit(target: Flushable): void {
  pending.delete(target);
}

function flushPending(): void {
  for (const target of [...pending]) {
    pending.delete(target);
    try {
      target.flush();
    } catch {
      // The process is ending: one failing log must not keep the others from writing.
    }
  }
}
