import { statSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { CONNECT_HELP, CONNECT_OPTIONS } from '../client/ServerTarget';
import type { Command, ParsedArgs } from '../cli/Command';
import { count } from '../cli/count';
import { fileError } from '../cli/fileError';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { jsonText, terminalSafeValue } from '../cli/terminalSafe';
import { UsageError } from '../cli/UsageError';
import type { Change } from '../contract/Change';
import { diffContracts } from '../contract/diffContracts';
import { loadContract, parseContract } from '../contract/loadContract';
import { didYouMean } from '../cli/didYouMean';
import { shellQuoted } from '../cli/shellQuoted';

export const schemaCommand: Command = {
  name: 'schema',
  serverArgs: true,
  summary: 'Snapshot the served contract, or diff it against a snapshot (breaking vs additive)',
  options: {
    out: { type: 'string', short: 'o' },
    json: { type: 'boolean' },
    ...CONNECT_OPTIONS,
  },
  help: `Usage: toolwright schema snapshot [server] [--out <file>]
       toolwright schema diff <old.json> [server] [--json]

snapshot  Start the server, read its tools, resources and prompts with their schemas as
          a client sees them, and write them as JSON (to stdout, or --out <file>).
          Commit the file: it is the contract your clients rely on.
diff      Compare the served contract with a snapshot and classify every change:
            breaking  removed tool/resource/prompt/parameter, new required parameter,
                      narrowed type, tighter bounds, removed enum value, removed output field
            additive  new tool, new optional parameter, widened type, new enum value
            info      description and title changes
          Exits 1 when anything is breaking: run it in CI.

Arguments:
  [server]           the compiled server to start over stdio (default: package.json "main",
                     else dist/server.js), or the URL of a running Streamable HTTP server

Options:
  -o, --out <file>   snapshot: write here instead of stdout
      --json         diff: print the changes as JSON
${CONNECT_HELP}
  -h, --help         show this help

Exit codes: 0 written / no breaking change, 1 breaking changes, 2 invalid arguments or
snapshot file, 3 the server failed to start or answer.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const [action, ...rest] = args.positionals;
    if (action === 'snapshot') {
      if (rest.length > 1) throw new UsageError(`Expected at most one server, got: ${rest.join(' ')}.`);
      const out = stringOption(args, 'out');
      // Checked before the server starts: a folder where the file belongs.
      if (out !== undefined && (endsWithSeparator(out) || isFolder(resolve(io.cwd, out)))) {
        const what = endsWithSeparator(out) ? `names a folder (it ends with '${out.at(-1)}')` : 'is a folder';
        throw new UsageError(`--out ${out} ${what}, and the snapshot is a file. Name a file in it: --out ${shellQuoted(inFolder(out))}.`);
      }
      const contract = await loadContract(args, io, rest[0]);
      const text = `${jsonText(contract)}\n`;
      if (out === undefined) io.stdout.write(text);
      else {
        const file = resolve(io.cwd, out);
        try {
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, text);
        } catch (error) {
          throw fileError(error, 'write', file, 'Pass --out a file path you can write, or leave --out off to print the snapshot to stdout.');
        }
        println(
          io.stderr,
          `Wrote ${out}: ${count(contract.tools.length, 'tool')}, ${count(contract.resources.length + contract.resourceTemplates.length, 'resource')}, ${count(contract.prompts.length, 'prompt')}.`,
        );
      }
      return ExitCode.Ok;
    }
    if (action === 'diff') {
      const [file, entry, ...extra] = rest;
      if (file === undefined) throw new UsageError("Expected the snapshot to compare with: 'toolwright schema diff contract.json'.");
      if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.`);
      let text: string;
      try {
        text = await readFile(resolve(io.cwd, file), 'utf8');
      } catch (error) {
        throw unreadableSnapshot(error, file);
      }
      const before = parseContract(text, file);
      const after = await loadContract(args, io, entry);
      const changes = diffContracts(before, after);
      if (booleanOption(args, 'json')) println(io.stdout, jsonText({ breaking: changes.some((c) => c.severity === 'breaking'), changes }));
      else printChanges(terminalSafeValue(changes), io);
      return changes.some((c) => c.severity === 'breaking') ? ExitCode.Failure : ExitCode.Ok;
    }
    throw new UsageError(
      action === undefined ? "Expected 'snapshot' or 'diff'. See 'toolwright schema --help'." : `Unknown action '${action}'. Use 'snapshot' or 'diff'.${didYouMean(action, ['snapshot', 'diff'])}`,
    );
  },
};

/** The snapshot file in a folder the user named where a file belongs. */
function inFolder(folder: string): string {
  return join(folder, 'contract.json');
}

/** Whether a path as typed names a folder: `snapshots/`. */
function endsWithSeparator(path: string): boolean {
  return /[\\/]$/.test(path);
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Why the snapshot `file` (as the user typed it) cannot be read, and how to fix that: a folder
 * (`schema diff /tmp`) needs the file's name in it, a missing file is written first by
 * `schema snapshot --out` with that same path.
 */
function unreadableSnapshot(error: unknown, file: string): Error {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // 'snapshots/' names a folder, there or not: written to as a file, it would not be read back by that name.
  const namesFolder = endsWithSeparator(file) && (code === 'ENOENT' || code === 'ENOTDIR');
  if (code === 'EISDIR' || namesFolder) {
    const named = shellQuoted(inFolder(file));
    const what = namesFolder ? `names a folder (it ends with '${file.at(-1)}')` : 'is a folder';
    return new UsageError(`Cannot read ${file}: it ${what}, and the snapshot is a file. Name the file in it (written by toolwright schema snapshot --out ${named}): toolwright schema diff ${named}`);
  }
  if (code === 'ENOENT') return new UsageError(`Cannot read ${file}: it does not exist (ENOENT). Write it first: toolwright schema snapshot --out ${shellQuoted(file)}`);
  const explained = fileError(error, 'read', file, "Pass the file written by 'toolwright schema snapshot --out <file>'.");
  return explained instanceof UsageError ? explained : new UsageError(`Cannot read ${file}: ${(error as Error).message}.`);
}

function printChanges(changes: Change[], io: Io): void {
  const o = io.out;
  if (changes.length === 0) return void println(io.stdout, o.green('No changes: the served contract matches the snapshot.'));
  const groups = [
    ['breaking', o.red('Breaking changes')],
    ['additive', o.green('Additive changes')],
    ['info', o.dim('Other changes')],
  ] as const;
  for (const [severity, title] of groups) {
    const group = changes.filter((c) => c.severity === severity);
    if (group.length === 0) continue;
    println(io.stdout, `${title} (${group.length}):`);
    for (const change of group) println(io.stdout, `  - ${change.where}: ${change.message}`);
  }
  const breaking = changes.filter((c) => c.severity === 'breaking').length;
  println(io.stdout, breaking > 0 ? o.red(`\n${count(breaking, 'breaking change')}: existing clients may fail.`) : o.green('\nNo breaking changes.'));
}
