import { flushAtExit, forgetAtExit } from './flushAtExit';

// C0 and C1 controls (CR, LF, ESC and the 8-bit CSI among them), DEL, the line and paragraph
// separators, the bidirectional overrides and isolates (they reorder what a terminal shows),
// and lone surrogates (not text; an encoder replaces or refuses them).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/gu;
const escape = (c: string): string => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * `text` cut to at most `max` characters (never between the two halves of a surrogate pair),
 * with `…` where it was cut.
 */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max - 1);
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * Text from outside (a name, a path, an error's message) made fit for one line of a text log:
 * cut to `max` characters, then every control character (CR, LF, escape sequences...), line
 * separator, bidirectional override and lone surrogate written as `\uXXXX`.
 */
export function logLineText(text: string, max = 1_000): string {
  return cutText(text, max).replace(UNSAFE, escape);
}

/**
 * `value` as one line of JSON: `JSON.stringify` escapes C0 controls; this also escapes DEL,
 * C1 controls, the line and paragraph separators, bidirectional overrides and lone surrogates
 * (they occur only inside strings, so the line stays the same valid JSON).
 */
export function jsonLogLine(value: unknown): string {
  return JSON.stringify(value).replace(UNSAFE, escape);
}

/** How many lines of one kind a `LogThrottle` writes. */
export interface LogThrottleOptions {
  /** The window, in milliseconds. Default 10,000. */
  readonly windowMs?: number;
  /** Lines of one key written per window; the rest are counted. Default 5. */
  readonly burst?: number;
  /** Keys tracked at once; beyond, a key shares its fallback's count. Default 200. */
  readonly maxKeys?: number;
  /**
   * Report the counts still pending when the process exits (`flush` in its `exit` event), so
   * the lines left out just before the end are not lost. One `exit` listener serves every
   * throttle of the process, and only throttles with a count pending are held. Default false.
   */
  readonly flushAtExit?: boolean;
}

interface Window {
  start: number;
  written: number;
  suppressed: number;
}

/**
 * Bounds the lines a log writes of one kind (a key): the first `burst` of each window are
 * written, the rest counted, and once the window is over `report` hears how many were left
 * out (one line for many). A client sending thousands of bad requests a second costs a few
 * lines every window instead of a line each. The timer is unref'd: it never keeps a process
 * up. A count pending when the process ends is reported by `flush` (the owner's shutdown),
 * or at exit with `flushAtExit`.
 */
export class LogThrottle {
  private readonly windows = new Map<string, Window>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly windowMs: number;
  private readonly burst: number;
  private readonly maxKeys: number;
  private readonly atExit: boolean;
  /** Held by `flushAtExit` (a count is pending). */
  private heldAtExit = false;

  constructor(
    private readonly report: (key: string, suppressed: number, windowMs: number) => void,
    options: LogThrottleOptions = {},
    private readonly now: () => number = Date.now,
  ) {
    this.windowMs = options.windowMs ?? 10_000;
    this.burst = options.burst ?? 5;
    this.maxKeys = options.maxKeys ?? 200;
    this.atExit = options.flushAtExit === true;
  }

  /**
   * Whether a line of `key` is to be written now. `fallback` is the key counted instead when
   * `maxKeys` keys are already tracked (keys made of outside text must not grow the map).
   */
  admit(key: string, fallback = '*'): boolean {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window && this.windows.size >= this.maxKeys) {
      this.sweep(now);
      if (this.windows.size >= this.maxKeys) {
        key = fallback;
        window = this.windows.get(key);
      }
    }
    if (!window) {
      window = { start: now, written: 0, suppressed: 0 };
      this.windows.set(key, window);
    } else if (now - window.start >= this.windowMs) {
      this.close(key, window);
      window.start = now;
      window.written = 0;
    }
    if (window.written < this.burst) {
      window.written += 1;
      return true;
    }
    window.suppressed += 1;
    this.timer ??= unref(setTimeout(() => this.tick(), this.windowMs));
    if (this.atExit && !this.heldAtExit) {
      this.heldAtExit = true;
      flushAtExit(this);
    }
    return false;
  }

  /** Reports every count not reported yet (at shutdown). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    for (const [key, window] of this.windows) this.close(key, window);
    this.windows.clear();
    this.releaseAtExit();
  }

  private tick(): void {
    this.timer = undefined;
    const now = this.now();
    this.sweep(now);
    for (const window of this.windows.values()) {
      if (window.suppressed > 0) {
        this.timer = unref(setTimeout(() => this.tick(), Math.max(1, window.start + this.windowMs - now)));
        return;
      }
    }
    this.releaseAtExit();
  }

  /** Nothing is pending: the exit listener need not hold this throttle. */
  private releaseAtExit(): void {
    if (!this.heldAtExit) return;
    this.heldAtExit = false;
    forgetAtExit(this);
  }

  /** Reports and forgets the windows that are over. */
  private sweep(now: number): void {
    for (const [key, window] of this.windows) {
      if (now - window.start < this.windowMs) continue;
      this.close(key, window);
      this.windows.delete(key);
    }
  }

  private close(key: string, window: Window): void {
    if (window.suppressed === 0) return;
    const suppressed = window.suppressed;
    window.suppressed = 0;
    this.report(key, suppressed, this.windowMs);
  }
}

function unref<T>(timer: T): T {
  (timer as { unref?: () => void }).unref?.();
  return timer;
}
