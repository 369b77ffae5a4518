import { ExitCode } from './cli/ExitCode';
import { println, type Io } from './cli/Io';
import { parseCommandArgs } from './cli/parseCommandArgs';
import { ServerError, UnansweredError, UsageError } from './cli/UsageError';
import { COMMANDS } from './commands/commands';
import { cliVersion } from './generate/packageRoot';
import { unsupportedNodeMessage } from './cli/supportedNode';
import { terminalSafe } from './cli/terminalSafe';

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

/** Runs `toolwright <argv>` and returns the exit code. Never calls process.exit itself. */
export async function runCli(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' ? COMMANDS.find((c) => c.name === rest[0]) : undefined;
    println(io.stdout, topic ? topic.help : mainHelp());
    return name === undefined ? ExitCode.Usage : ExitCode.Ok;
  }
  if (name === '--version' || name === '-v') {
    println(io.stdout, cliVersion());
    return ExitCode.Ok;
  }
  const unsupported = unsupportedNodeMessage();
  if (unsupported !== undefined) {
    println(io.stderr, `${io.err.red('error:')} ${unsupported}`);
    return ExitCode.Usage;
  }
  const command = COMMANDS.find((c) => c.name === name);
  try {
    if (!command) throw new UsageError(`Unknown command '${name}'. Commands: ${COMMANDS.map((c) => c.name).join(', ')}. See 'toolwright --help'.`);
    const args = parseCommandArgs(command, rest);
    if (args.values.help === true) {
      println(io.stdout, command.help);
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
