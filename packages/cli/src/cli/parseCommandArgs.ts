import { parseArgs } from 'node:util';
import type { Command, ParsedArgs } from './Command';
import { UsageError } from './UsageError';

/** Parses a command's arguments strictly: an unknown flag is a usage error that names the command's help. */
export function parseCommandArgs(command: Command, argv: readonly string[]): ParsedArgs {
  const dashDash = argv.indexOf('--');
  const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const rest = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  if (dashDash !== -1 && command.serverArgs !== true) {
    throw new UsageError(
      `toolwright ${command.name} starts no server, so it takes nothing after '--'${rest.length > 0 ? ` (got '${rest[0]}')` : ''}: put its options before '--'. See 'toolwright ${command.name} --help'.`,
    );
  }
  try {
    const { values, positionals } = parseArgs({
      args: [...own],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values, positionals, rest };
  } catch (error) {
    // node's messages are good ("Unknown option '--foo'"); make them one line and add where to look.
    const message = (error as Error).message
      .replace(/\. To specify a positional argument.*$/s, '')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\.$/, '');
    throw new UsageError(`${message}. See 'toolwright ${command.name} --help'.`);
  }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}
