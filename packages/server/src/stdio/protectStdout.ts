import { ConfigError } from '@toolwright/core';

/** Writes `chunk` to the real stdout, calling `done` once it is out; false when the stream asks to wait (`drain`). */
export type StdoutWrite = (chunk: string, done: () => void) => boolean;

/** Marks the `write` that sends a protected stdout's other writers to stderr (kept on the stream itself: no module state). */
const PROTECTED = Symbol('toolwright.protectedStdout');

/**
 * Reserves stdout for the protocol: from now on `console.log`/`info`/`debug`/`trace`/`dir`
 * and any `process.stdout.write` by the app or its libraries go to stderr. Returns the only
 * writer that still reaches the real stdout, for the transport, and a function that undoes it.
 * Refused (`ConfigError`) while stdout is protected already: a second stdio listener on the
 * process's streams would read every request too, run it a second time, and answer on stderr.
 */
export function protectStdout(stdout: NodeJS.WriteStream = process.stdout): { write: StdoutWrite; restore: () => void } {
  const original = stdout.write;
  if (Object.hasOwn(original, PROTECTED)) {
    throw new ConfigError(
      "Toolwright: this process already serves stdio on its stdin and stdout: a second listener would read every request too and run it twice. Close the first listener before serving stdio again, or give this one streams of its own (listen({ transport: 'stdio', stdin, stdout })).",
    );
  }
  const realWrite = original.bind(stdout) as (chunk: string, cb: () => void) => boolean;
  // stderr and the console that writes there are made on first use: setting them up costs startup time.
  stdout.write = Object.defineProperty(((...args: Parameters<typeof process.stderr.write>) => process.stderr.write(...args)) as typeof stdout.write, PROTECTED, { value: true });

  const consoleMethods = ['log', 'info', 'debug', 'trace', 'dir'] as const;
  const saved = consoleMethods.map((m) => console[m]);
  const install = (pick: (m: (typeof consoleMethods)[number]) => unknown): void => {
    for (const m of consoleMethods) (console as unknown as Record<string, unknown>)[m] = pick(m);
  };
  // The first call makes the stderr console and puts its own methods in place.
  let errorConsole: Console | undefined;
  install((m) => (...args: unknown[]) => {
    if (!errorConsole) {
      const made = (errorConsole = new console.Console({ stdout: process.stderr, stderr: process.stderr }));
      install((name) => made[name].bind(made));
    }
    (errorConsole[m] as (...a: unknown[]) => void)(...args);
  });

  return {
    write: (chunk, done) => realWrite(chunk, done),
    restore: () => {
      stdout.write = original;
      consoleMethods.forEach((m, i) => ((console as unknown as Record<string, unknown>)[m] = saved[i]));
    },
  };
}
