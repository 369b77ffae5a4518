import { execFile } from 'node:child_process';

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
  /** Set when the command was stopped: it ran past its time (a loaded machine) or got a signal. */
  stopped?: string;
}

/** Runs a command to completion and returns its exit code and output; never throws on a non-zero exit. */
export function run(command: string, args: readonly string[], cwd: string, timeoutMs = 240_000, env: NodeJS.ProcessEnv = {}): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: undefined, ...env } }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      const stopped = error?.killed ? `killed (${error.signal}) after its ${timeoutMs} ms` : error?.signal ? `ended by ${error.signal}` : undefined;
      resolve({ code, stdout: String(stdout), stderr: String(stderr), ...(stopped && { stopped }) });
    });
  });
}

/** The output, for a failing assertion to show why. */
export const transcript = (r: RunResult): string => `exit ${r.code}${r.stopped ? `, ${r.stopped}` : ''}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
