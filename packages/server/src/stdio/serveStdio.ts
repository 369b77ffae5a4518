import { ConfigError } from '@toolwright/core';
import type { Listener } from '../serving/Listener';
import type { ListenerRelease, ServerFactory } from '../serving/ServerFactory';
import type { StdioListenOptions } from './StdioListenOptions';
import { protectStdout } from './protectStdout';
import { MAX_LINE_BYTES, StdioTransport } from './StdioTransport';
import { serveStdioEras } from '../serving/serveStdioEras';
import { failureLogger } from '../ground/failureLogger';
import { drainTimeoutOf } from '../serving/drainTimeoutOf';
import { DEFAULT_DRAIN_TIMEOUT_MS, drainWindow } from '../serving/drainWindow';

/** How long the shutdown waits for running calls (then for stdout) when `drainTimeoutMs` is left out. */

/** The one line a server started on a terminal prints. */
const TERMINAL_NOTE =
  'serving MCP over stdio: waiting for JSON-RPC messages on stdin. An MCP client starts this process (npx toolwright config claude); to try a tool: npx toolwright call <entry> <tool>. Ctrl+C stops it.';

/**
 * Serves the app over stdio: one connection, newline-delimited JSON-RPC on stdout and
 * nothing else there. The first message decides the era: a 2025-era session
 * (`initialize`) or 2026-07-28 requests (see `serveStdioEras`). Ends when stdin closes or on
 * SIGINT/SIGTERM, after running calls finish; while they do, the client's answers to the
 * server's requests still arrive, new requests are refused, and a call still running when
 * the drain timeout passes is answered with an error.
 */
export async function serveStdio(app: ServerFactory, options: StdioListenOptions = { transport: 'stdio' }): Promise<Listener> {
  return serveStdioAfter(() => Promise.resolve(), app, options);
}

/**
 * `serveStdio`, after `start` (the app's start hooks, for `app.listen`), which runs once the
 * process's stdout is reserved for the protocol: its console output goes to stderr too. `hold`
 * takes the app's listener hold (see `App.openListener`) just before `start`, for a caller whose
 * `start` starts the app: taken once it started, another listener closing meanwhile could stop
 * it. Without `hold`, the hold is taken once the caller is known. stdout is given back, and the
 * hold let go, when `start` or serving fails to begin, or once the listener closed.
 */
export async function serveStdioAfter(start: () => Promise<void>, app: ServerFactory, options: StdioListenOptions, hold?: () => ListenerRelease): Promise<Listener> {
  checkStreams(options);
  drainTimeoutOf("listen({ transport: 'stdio', drainTimeoutMs })", options.drainTimeoutMs, DEFAULT_DRAIN_TIMEOUT_MS);
  const protectedOut = options.stdout === undefined ? protectStdout() : undefined;
  let release: ListenerRelease | undefined;
  try {
    release = hold?.();
    await start();
    return await serveProtectedStdio(app, options, protectedOut, () => (release ??= app.openListener()));
  } catch (error) {
    // Let go first: the shutdown hooks this may run still have stdout protected, as on close().
    await release?.();
    protectedOut?.restore();
    throw error;
  }
}

/**
 * `serveStdio` with the process's stdout reserved by `protectedOut` (undefined with
 * `options.stdout` given); `hold` takes the app's listener hold (or gives the one taken) and
 * returns its release. A failure is thrown to the caller, which gives stdout back and lets go.
 */
async function serveProtectedStdio(app: ServerFactory, options: StdioListenOptions, protectedOut: ReturnType<typeof protectStdout> | undefined, hold: () => ListenerRelease): Promise<Listener> {
  const stdin = options.stdin ?? process.stdin;
  const custom = options.stdout !== undefined;
  const out = options.stdout;
  const write = protectedOut?.write ?? ((chunk: string, done: () => void) => out!.write(chunk, done));
  // Malformed messages and the terminal note: in the app's logger, or on stderr.
  const log = failureLogger(app.logger, 'stdio');
  const caller = await options.authInfo?.();
  const release = hold();
  const transport = new StdioTransport(stdin, write);
  transport.setCaller(caller);
  const session = serveStdioEras(
    transport,
    // A 2026-07-28 round's state must fit in the one line of the client's retry.
    ({ era }) => app.createServer({ era, authInfo: caller, maxRequestBytes: MAX_LINE_BYTES }),
    (error) => log.warn(error.message),
  );
  await transport.start();
  // Started by hand on a terminal, a stdio server waits in silence for JSON-RPC, which looks hung: say so once, in the app's log (stderr by default).
  if ((stdin as { isTTY?: boolean }).isTTY === true) log.info(TERMINAL_NOTE);
  const exitOnClose = options.exitOnClose ?? !custom;
  const drainTimeoutMs = options.drainTimeoutMs ?? DEFAULT_DRAIN_TIMEOUT_MS;

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      const drain = drainWindow("listen({ transport: 'stdio', drainTimeoutMs })", drainTimeoutMs);
      transport.drain();
      await transport.idle(drainTimeoutMs);
      transport.abandon(`Server shutting down: the call did not finish within the drain timeout (${drainTimeoutMs} ms) and was abandoned.`);
      await session.close();
      // The last answers may still be in stdout's buffer (a client reading slowly): exiting now would lose them.
      await transport.outputTaken(drainTimeoutMs);
      // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
      await release(drain.left());
      log.flush();
      // Only now: answers to running calls may have hit a broken pipe too.
      process.stdout.off('error', onOutputError);
      protectedOut?.restore();
      if (exitOnClose) process.exit(0);
    })());
  const onSignal = (): void => void close();
  // The client stopped reading (EPIPE): nothing more can reach it, so finish running calls and end.
  const onOutputError = (): void => void close();

  transport.oninputend = onSignal;
  transport.onclose = chain(transport.onclose, onSignal);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  if (!custom) process.stdout.on('error', onOutputError);
  return { close };
}

/** Given streams must be streams: anything else would fail inside the transport, with node's words, after the start hooks ran. */
function checkStreams({ stdin, stdout }: StdioListenOptions): void {
  const lacks = (stream: unknown, methods: readonly string[]): string | undefined => methods.find((m) => typeof (stream as Record<string, unknown> | null)?.[m] !== 'function');
  const inputLack = stdin === undefined ? undefined : lacks(stdin, ['on', 'off', 'pause', 'resume']);
  if (inputLack !== undefined) {
    throw new ConfigError(
      `Toolwright: listen({ transport: 'stdio', stdin }) needs a readable stream, and the stdin given has no ${inputLack}() method. Pass a stream (a PassThrough in tests), or leave stdin out to read the process's.`,
    );
  }
  const outputLack = stdout === undefined ? undefined : lacks(stdout, ['write']);
  if (outputLack !== undefined) {
    throw new ConfigError(
      `Toolwright: listen({ transport: 'stdio', stdout }) needs a writable stream, and the stdout given has no ${outputLack}() method. Pass a stream (a PassThrough in tests), or leave stdout out to write to the process's.`,
    );
  }
}

function chain(first: (() => void) | undefined, second: () => void): () => void {
  return () => {
    first?.();
    second();
  };
}
