import { createStyle, type Style } from './style';

/** What a command may touch of the outside world; tests pass their own. */
export interface Io {
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Styles for stdout and stderr, each coloured only when that stream is a terminal. */
  readonly out: Style;
  readonly err: Style;
  /**
   * Whether questions may be asked: stdin and stderr are terminals. Questions go to stderr, so
   * stdout may be a file or a pipe (`toolwright call ... > out.json` still asks).
   */
  readonly interactive: boolean;
}

export function processIo(): Io {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    out: createStyle(process.stdout),
    err: createStyle(process.stderr),
    interactive: process.stdin.isTTY === true && process.stderr.isTTY === true,
  };
}

export function println(stream: NodeJS.WritableStream, text = ''): void {
  stream.write(`${text}\n`);
}
