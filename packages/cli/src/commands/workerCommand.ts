import { existsSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { stringOption } from '../cli/parseCommandArgs';
import { ServerError, UsageError } from '../cli/UsageError';

/** What the worker needs of an app: its start and stop hooks (the tasks extension starts its worker with them). */
interface Startable {
  start(): Promise<void>;
  /** `drainTimeoutMs`: the extensions stop first (no task is taken), then the stop waits that long at most for the runs in flight. */
  stop(drainTimeoutMs?: number): Promise<void>;
}

/** How long the worker's stop waits for its running tasks. */
const STOP_DRAIN_MS = 30_000;

const EXPORTS = ['app', 'default'];

export const workerCommand: Command = {
  name: 'worker',
  summary: 'Run queued and stopped tasks of an app, without serving clients',
  options: { export: { type: 'string' } },
  help: `Usage: toolwright worker <module> [--export <name>]

Start the app a compiled module exports, without serving any transport, so that its tasks
extension works: it takes queued tasks (tasks({ queue: true }) on the serving instances) and
runs each as the caller who created it, and it sweeps: a task whose instance stopped runs
again (restartable ones) or is marked failed, whether or not a client polls it. Give the app
a store every instance shares (RedisTaskStore of @toolwright/redis). Ctrl-C or SIGTERM stops
it after its running tasks finish (at most 30 s).

Arguments:
  <module>           compiled JavaScript that exports the app, or a function returning it
                     (e.g. dist/app.js exporting createApp's result or a factory)

Options:
      --export <name>  the export to use (default: 'app', else the default export)
  -h, --help           show this help

Examples:
  toolwright worker dist/app.js
  toolwright worker dist/app.js --export createFullApp

Exit codes: 0 stopped by a signal, 2 invalid arguments, 3 the module gives no app or it could not start.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length !== 1) throw new UsageError('Expected one module that exports the app: toolwright worker dist/app.js');
    const given = args.positionals[0]!;
    const file = isAbsolute(given) ? given : resolve(io.cwd, given);
    const shown = relative(io.cwd, file) || file;
    if (/\.(c|m)?tsx?$/.test(file)) throw new UsageError(`${shown} is TypeScript. Build the project ('npm run build') and pass the compiled module, e.g. dist/app.js.`);
    if (!existsSync(file)) throw new UsageError(`${shown} does not exist. Run 'npm run build' first, or pass the compiled module that exports the app.`);
    const name = stringOption(args, 'export');
    // Compiled projects are CommonJS (as Toolwright's templates build them).
    const app = await appOf(require(file) as Record<string, unknown>, name, shown);
    const log = (message: string) => println(io.stderr, io.err.cyan(`[toolwright worker] ${message}`));
    try {
      await app.start();
    } catch (error) {
      throw new ServerError(`The app of ${shown} could not start: ${(error as Error).message}`);
    }
    log(`working for ${shown} (pid ${process.pid}): taking queued tasks and sweeping stopped ones; Ctrl-C stops`);
    return new Promise<number>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        log('stopping after the running tasks finish');
        void (async () => {
          // Not app.drain() first: the worker would still take queued tasks while it waits.
          await app.stop(STOP_DRAIN_MS);
          done(ExitCode.Ok);
        })();
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
  },
};

/** The app a module exports under `name` (default `app`, else the default export); a function is called for it. */
async function appOf(module: Record<string, unknown>, name: string | undefined, shown: string): Promise<Startable> {
  const names = name === undefined ? EXPORTS : [name];
  const key = names.find((n) => Object.hasOwn(module, n) && module[n] !== undefined);
  if (key === undefined) throw new ServerError(`${shown} exports no ${names.map((n) => `'${n}'`).join(' or ')}. Export the app (export const app = await createApp(...)) or pass --export <name>.`);
  let value = module[key];
  if (typeof value === 'function') value = await (value as () => unknown)();
  value = await value;
  const app = value as Partial<Startable> | undefined;
  if (typeof app?.start !== 'function' || typeof app.stop !== 'function')
    throw new ServerError(`The export '${key}' of ${shown} is not a Toolwright app (no start and stop): export createApp's result, or a function returning it.`);
  return app as Startable;
}
