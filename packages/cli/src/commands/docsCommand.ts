import { mkdir, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { CONNECT_HELP, CONNECT_OPTIONS } from '../client/ServerTarget';
import type { Command, ParsedArgs } from '../cli/Command';
import { count } from '../cli/count';
import { fileError } from '../cli/fileError';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { stringOption } from '../cli/parseCommandArgs';
import { terminalSafeValue } from '../cli/terminalSafe';
import { UsageError } from '../cli/UsageError';
import { loadContract } from '../contract/loadContract';
import { llmsTxt } from '../reference/llmsTxt';
import { referenceMarkdown } from '../reference/referenceMarkdown';

const REFERENCE_FILE = 'reference.md';

export const docsCommand: Command = {
  name: 'docs',
  serverArgs: true,
  summary: "Write a Markdown reference and an llms.txt of the server's tools, resources and prompts",
  options: { out: { type: 'string', short: 'o' }, ...CONNECT_OPTIONS },
  help: `Usage: toolwright docs [server] [--out <dir>] [-- <server args>]

Start the server (or connect to its URL), read what it serves (every tool with its
parameters and schema, every resource, resource template and prompt, all derived from the
decorators) and write two files:
  <dir>/${REFERENCE_FILE}  a Markdown reference, one section per tool, resource and prompt
  <dir>/llms.txt       an llms.txt (llmstxt.org): one line per item, linking into ${REFERENCE_FILE}

Arguments:
  [server]           the compiled server to start over stdio (default: package.json "main",
                     else dist/server.js), or the URL of a running Streamable HTTP server

Options:
  -o, --out <dir>    where to write (default: docs)
${CONNECT_HELP}
  -h, --help         show this help

Exit codes: 0 written, 2 invalid arguments, 3 the server failed to start or answer.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one server, got: ${args.positionals.join(' ')}.`);
    // Text files people read in a terminal too: control characters from the server are written as escapes.
    const contract = terminalSafeValue(await loadContract(args, io, args.positionals[0]));
    const dir = resolve(io.cwd, stringOption(args, 'out') ?? 'docs');
    const fix = 'Pass --out a folder you can write (it is created when missing).';
    await mkdir(dir, { recursive: true }).catch((error: unknown) => {
      throw fileError(error, 'write', dir, fix);
    });
    for (const [name, text] of [
      [REFERENCE_FILE, referenceMarkdown(contract)],
      ['llms.txt', llmsTxt(contract, REFERENCE_FILE)],
    ] as const) {
      await writeFile(join(dir, name), text).catch((error: unknown) => {
        throw fileError(error, 'write', join(dir, name), fix);
      });
    }
    const shown = relative(io.cwd, dir).startsWith('..') ? dir : relative(io.cwd, dir) || '.';
    println(
      io.stdout,
      `Wrote ${join(shown, REFERENCE_FILE)} and ${join(shown, 'llms.txt')}: ${count(contract.tools.length, 'tool')}, ${count(contract.resources.length + contract.resourceTemplates.length, 'resource')}, ${count(contract.prompts.length, 'prompt')}.`,
    );
    return ExitCode.Ok;
  },
};
