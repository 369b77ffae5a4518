import { LOG_LEVELS, type LogLevel, type ToolLogger } from '@toolwright/core';
import { cutText, jsonProblem } from '@toolwright/core/internal';
import type { Notification } from '../sdk/sdk';

/** The longest log line (message and data JSON, in characters) a call sends unless the app's `maxLogLength` says otherwise. */
export const DEFAULT_MAX_LOG_LENGTH = 65_536;

/**
 * How many characters of one call's log lines (each with its notification's framing) may wait to be written: past it, further lines
 * are left out until the client has taken those (a flood costs memory, not the process).
 */
export const MAX_PENDING_LOG_CHARS = 4 * 1024 * 1024;

/**
 * What each line adds to the characters waiting to be written besides its message and data: the
 * notification around them (about 90 characters of JSON-RPC and the member's name). Counted so
 * that a flood of empty lines is bounded as a flood of long ones is.
 */
const LINE_FRAMING = 100;

const SEVERITY = new Map<string, number>(LOG_LEVELS.map((level, i) => [level, i]));

/** What one call's `ctx.log` needs: who logs, how to send, the level the client wants, and the limits. */
export interface ClientLogSetup {
  /** The member's name: the lines' `logger`, and the name in the server's warnings. */
  readonly name: string;
  readonly notify: (notification: Notification) => Promise<void>;
  /** The lowest level the client wants now; undefined for none. */
  readonly threshold: () => LogLevel | undefined;
  /** The framework's own log (stderr), for what the client must not see. */
  readonly logger: ToolLogger;
  readonly maxLength: number;
}

/**
 * The `ctx.log(level, message, data?)` of one call: sends `notifications/message` at or above
 * the client's level. A line longer than `maxLength` (message and data JSON) goes cut, without
 * its data, with a note saying so; while more than `MAX_PENDING_LOG_CHARS` of the call's lines
 * wait to be written, further lines are left out, and once they are written one line says how
 * many were. Each of these is told once per call on the server's log. A line never fails the call.
 */
export function clientLogOf({ name, notify, threshold, logger, maxLength }: ClientLogSetup): (level: LogLevel, message: string, data?: unknown) => void {
  let pending = 0;
  let dropped = 0;
  let droppedLevel: LogLevel = 'debug';
  const warned = { cut: false, dropped: false };
  const warnOnce = (kind: keyof typeof warned, text: string) => {
    if (warned[kind]) return;
    warned[kind] = true;
    logger.warn(text);
  };

  const send = (level: LogLevel, data: unknown, length: number): void => {
    const size = length + LINE_FRAMING;
    if (pending > 0 && pending + size > MAX_PENDING_LOG_CHARS) {
      dropped += 1;
      if (SEVERITY.get(level)! > SEVERITY.get(droppedLevel)!) droppedLevel = level;
      warnOnce('dropped', `'${name}' logged faster than the client took the lines; lines were left out while ${MAX_PENDING_LOG_CHARS} characters of them waited to be written`);
      return;
    }
    pending += size;
    const written = () => {
      pending -= size;
      if (pending > 0 || dropped === 0) return;
      const note = `[${dropped} log line${dropped === 1 ? ' was' : 's were'} left out: the client did not take them as fast as they came]`;
      dropped = 0;
      send(droppedLevel, note, note.length);
    };
    // A closed stream just drops the line.
    notify({ method: 'notifications/message', params: { level, logger: name, data } }).then(written, written);
  };

  return (level, message, data) => {
    const wanted = threshold();
    if (wanted === undefined || SEVERITY.get(level)! < SEVERITY.get(wanted)!) return;
    const text = String(message);
    // Data JSON cannot carry (a BigInt, a cycle) would fail the send, and the line would be lost without a word: send the message alone.
    const problem = data === undefined ? undefined : jsonProblem(data, 'data');
    if (problem !== undefined) logger.warn(`'${name}' logged data JSON cannot carry (${problem}); the line was sent without it`);
    const json = data === undefined || problem !== undefined ? undefined : (JSON.stringify(data) as string | undefined);
    const size = text.length + (json?.length ?? 0);
    if (size <= maxLength) return send(level, json === undefined ? text : { message: text, data }, size);
    warnOnce(
      'cut',
      `'${name}' logged a line of ${size} characters (message and data), more than maxLogLength (${maxLength}); the client got it cut, without its data. Log less, or raise the app's maxLogLength.`,
    );
    const cut = `${cutText(text, maxLength)} [this log line was cut: ${size} characters of message and data, more than the ${maxLength} this server sends]`;
    send(level, cut, cut.length);
  };
}
