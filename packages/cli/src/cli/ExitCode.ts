/**
 * What `toolwright` exits with. Scripts and CI can tell "the check failed" (1) from "you
 * called it wrong" (2) and "the server could not be reached" (3).
 */
export const ExitCode = {
  /** Done; nothing to report. */
  Ok: 0,
  /** The command ran and found a failure: a tool error, lint errors, a breaking change. */
  Failure: 1,
  /** Bad command line or input: unknown flag, invalid name or template, non-empty folder; or an unsupported Node.js. */
  Usage: 2,
  /** The server did not start, crashed, or answered with a protocol error. */
  Server: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
