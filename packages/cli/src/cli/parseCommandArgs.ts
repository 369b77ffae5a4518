import { parseArgs } from 'node:util';
import type { Command, ParsedArgs } from './Command';
import { UsageError } from './UsageError';
import { nearest } from './didYouMean';

/**
 * Parses a command's arguments strictly: an unknown flag is a usage error that names the command's help.
 * `invocation` is what the user typed to run the command (`npm create toolwright@latest --` for `new`), named in those messages.
 */
export function parseCommandArgs(command: Command, argv: readonly string[], invocation = `toolwright ${command.name}`): ParsedArgs {
  const dashDash = argv.indexOf('--');
  const own = dashDash === -1 ? argv : argv.slice(0, dashDash);
  const rest = dashDash === -1 ? [] : argv.slice(dashDash + 1);
  if (dashDash !== -1 && command.serverArgs !== true) {
    throw new UsageError(
      `toolwright ${command.name} starts no server, so it takes nothing after '--'${rest.length > 0 ? ` (got '${rest[0]}')` : ''}: put its options before '--'. See '${invocation} --help'.`,
    );
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: [...own],
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
  } catch (error) {
    // node's messages are good ("Unknown option '--foo'"); make them one line and add where to look.
    const message = (error as Error).message
      .replace(/\. To specify a positional argument.*$/s, '')
      .replace(/\s*\n\s*/g, ' ')
      .replace(/\.$/, '');
    const unknown = /^Unknown option '--([^']+)'/.exec(message)?.[1];
    const hint = unknown === undefined ? undefined : nearest(unknown, Object.keys(command.options));
    throw new UsageError(`${message}.${hint === undefined ? '' : ` Did you mean '--${hint}'?`} See '${invocation} --help'.`);
  }
  refuseRepeatedValues(command, parsed.tokens, invocation);
  return { values: parsed.values, positionals: parsed.positionals, rest, invocation };
}

/**
 * A value option given twice (`--template minimal --template weather`) is refused: the parser
 * keeps the last one silently, which hides a typo or a flag added by a script. Options that
 * take a list (`--header`, `--field`) repeat by design; a repeated boolean changes nothing.
 */
function refuseRepeatedValues(command: Command, tokens: readonly { kind: string; name?: string; value?: string | undefined }[], invocation: string): void {
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === undefined || token.value === undefined) continue;
    const spec = Object.hasOwn(command.options, token.name) ? command.options[token.name] : undefined;
    if (spec === undefined || spec.multiple === true) continue;
    // The values are not quoted: one may be a secret (a refused --bearer <token>).
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given twice: it takes one value. Keep the one you mean. See '${invocation} --help'.`);
    seen.add(token.name);
  }
}

export function stringOption(args: ParsedArgs, name: string): string | undefined {
  const value = args.values[name];
  return typeof value === 'string' ? value : undefined;
}

export function booleanOption(args: ParsedArgs, name: string): boolean {
  return args.values[name] === true;
}
