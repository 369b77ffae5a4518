import { PassThrough } from 'node:stream';
import { createStyle } from '../../src/cli/style';
import type { Io } from '@toolwright/cli';

export interface MemoryIo extends Io {
  /** Everything written to stdout / stderr so far. */
  output(): string;
  errors(): string;
}

/** An Io for running commands in-process: captured output, no terminal, no colours. */
export function memoryIo(cwd: string, options: { interactive?: boolean; input?: string } = {}): MemoryIo {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const stdin = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  if (options.input !== undefined) stdin.end(options.input);
  return {
    cwd,
    env: {},
    stdin,
    stdout,
    stderr,
    out: createStyle({ isTTY: false }, {}),
    err: createStyle({ isTTY: false }, {}),
    interactive: options.interactive ?? false,
    output: () => out,
    errors: () => err,
  };
}
