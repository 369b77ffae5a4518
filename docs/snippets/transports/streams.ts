import type { App, Listener } from '@toolwright/server';

// #region streams
/** Serves the app over any pair of streams, e.g. a socket or a child process's pipes. */
export function serveOver(app: App, input: NodeJS.ReadableStream, output: NodeJS.WritableStream): Promise<Listener> {
  return app.listen({
    transport: 'stdio',
    stdin: input,
    stdout: output,
    exitOnClose: false, // keep the process alive when the input ends
    drainTimeoutMs: 5_000, // on close, wait up to 5 s for running calls
  });
}
// #endregion streams
