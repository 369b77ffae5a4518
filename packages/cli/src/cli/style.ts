/** Text styles; plain text when colour is off. */
export interface Style {
  readonly enabled: boolean;
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

const code = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

/**
 * Colour only for a terminal: pipes, files and CI logs get plain text. `NO_COLOR` turns it
 * off and `FORCE_COLOR` on (https://no-color.org).
 */
export function createStyle(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Style {
  const enabled = env.NO_COLOR ? false : env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0' ? true : stream.isTTY === true;
  const plain = (text: string) => text;
  return {
    enabled,
    bold: enabled ? code(1, 22) : plain,
    dim: enabled ? code(2, 22) : plain,
    red: enabled ? code(31, 39) : plain,
    green: enabled ? code(32, 39) : plain,
    yellow: enabled ? code(33, 39) : plain,
    cyan: enabled ? code(36, 39) : plain,
  };
}
