import { ExitCode } from './cli/ExitCode';
import { println, type Io } from './cli/Io';
import { parseCommandArgs } from './cli/parseCommandArgs';
import { ServerError, UnansweredError, UsageError } from './cli/UsageError';
import { COMMANDS } from './commands/commands';
import { cliVersion } from './generate/packageRoot';
import { unsupportedNodeMessage } from './cli/supportedNode';
import { terminalSafe } from './cli/terminalSafe';
import { didYouMean } from './cli/didYouMean';
import type { Command } from './cli/Command';

function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return `Usage: toolwright <command> [options]

Build, run and check MCP servers made with Toolwright.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`).join('\n')}

Run 'toolwright <command> --help' for a command's options.

Exit codes:
  0  success
  1  the command found a failure (a tool error, lint errors, a breaking change)
  2  invalid usage (unknown command or flag, invalid name or template, non-empty folder,
     unsupported Node.js)
  3  the server could not be started or answered with a protocol error

Colours are used only on a terminal; NO_COLOR turns them off, FORCE_COLOR on.`;
}

/** The command called `name`, or a usage error that lists the commands and names the one probably meant. */
function knownCommand(name: string, rest: readonly string[]): Command {
  const command = COMMANDS.find((c) => c.name === name);
  if (command) return command;
  const names = COMMANDS.map((c) => c.name);
  // `toolwright --verbose call ...`: an option where the command belongs.
  if (name.startsWith('-')) throw new UsageError(`'${name}' is an option, and the command comes first: toolwright <command> [options]. Commands: ${names.join(', ')}. See 'toolwright --help'.`);
  // `toolwright test conformance` for `toolwright test-conformance`.
  const joined = rest[0] === undefined ? undefined : names.find((n) => n === `${name}-${rest[0]}`);
  const hint = joined === undefined ? didYouMean(name, names) : ` Did you mean '${joined}'?`;
  throw new UsageError(`Unknown command '${name}'.${hint} Commands: ${names.join(', ')}. See 'toolwright --help'.`);
}

/** A command's `--help`, naming what the user typed to run it. */
function helpText(command: Command, invocation: string): string {
  return typeof command.help === 'string' ? command.help : command.help(invocation);
}

/** How `runCli` was started, when not as `toolwright`. */
export interface RunCliOptions {
  /**
   * What the user typed to run the command, named in its messages (`See '<invocation> --help'`),
   * e.g. `npm create toolwright@latest --` for `new`. Default: `toolwright <command>`.
   */
  readonly invocation?: string;
}

/** Runs `toolwright <argv>` and returns the exit code. Never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: Io, options: RunCliOptions = {}): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || (name === 'help' && (rest.length === 0 || rest[0] === '--help' || rest[0] === '-h'))) {
    println(io.stdout, mainHelp());
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    println(io.stdout, cliVersion());
    return ExitCode.Ok;
  }
  try {
    if (name === 'help') {
      const topic = knownCommand(rest[0], rest.slice(1));
      if (rest.length > 1) throw new UsageError(`'toolwright help' explains one command, got ${rest.length} words: ${rest.join(' ')}. Run 'toolwright help ${topic.name}'.`);
      println(io.stdout, helpText(topic, `toolwright ${topic.name}`));
      return ExitCode.Ok;
    }
    const unsupported = unsupportedNodeMessage();
    if (unsupported !== undefined) {
      println(io.stderr, `${io.err.red('error:')} ${unsupported}`);
      return ExitCode.Usage;
    }
    const command = knownCommand(name, rest);
    const args = parseCommandArgs(command, rest, options.invocation);
    if (args.values.help === true) {
      println(io.stdout, helpText(command, args.invocation));
      return ExitCode.Ok;
    }
    return await command.run(args, io);
  } catch (error) {
    // Messages quote what servers sent (errors, names, their stderr): shown, never obeyed.
    const report = (code: number): number => {
      println(io.stderr, `${io.err.red('error:')} ${terminalSafe((error as Error).message)}`);
      return code;
    };
    if (error instanceof UsageError) return report(ExitCode.Usage);
    if (error instanceof ServerError) return report(ExitCode.Server);
    if (error instanceof UnansweredError) return report(ExitCode.Failure);
    throw error;
  }
}
