import { copyFile, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Command, ParsedArgs } from '../cli/Command';
import { fileError } from '../cli/fileError';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { shellQuoted } from '../cli/shellQuoted';
import { CLIENT_NAMES, CLIENTS, clientConfig, headerNotes, literalHeaderNames } from '../config/clientConfig';
import { clientConfigFile } from '../config/clientConfigFile';
import { BOM, mergeClientConfig } from '../config/mergeClientConfig';
import { LAUNCH_HELP, LAUNCH_OPTIONS, serverLaunch } from '../config/serverLaunch';

export const installCommand: Command = {
  name: 'install',
  summary: "Add this project's server to Claude Desktop's, Cursor's or VS Code's config file",
  options: { ...LAUNCH_OPTIONS, 'dry-run': { type: 'boolean' }, global: { type: 'boolean' }, file: { type: 'string' } },
  help: `Usage: toolwright install <claude|cursor|vscode> [entry] [options]

Write the entry that registers this project's server into the client's configuration file
(the snippet 'toolwright config' prints), keeping every other server and setting, comments
and layout. An entry of the same name is replaced. The file as it was is kept next to it as
<file>.bak; a byte-order mark at its start is not written back.

${LAUNCH_HELP}
      --dry-run      print the file as it would be written, and where; change nothing
      --global       cursor: the user's ~/.cursor/mcp.json instead of the project's
      --file <path>  write this file instead of the client's usual one
  -h, --help         show this help

Files:
${CLIENT_NAMES.map((c) => `  ${CLIENTS[c].label}: ${CLIENTS[c].file}`).join('\n')}
  (Claude Desktop on Linux: ~/.config/Claude/claude_desktop_config.json)

Restart the client (or reload its MCP servers) to pick the change up.

Exit codes: 0 written (or shown with --dry-run), 2 invalid arguments or a config file that
is not JSON, even allowing comments and trailing commas (nothing is written then).`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const { client, name, launch, projectDir } = serverLaunch(args, io);
    const fileOption = stringOption(args, 'file');
    const file = fileOption === undefined ? clientConfigFile(client, projectDir, { global: booleanOption(args, 'global'), env: io.env }) : resolve(io.cwd, fileOption);
    // Nothing is written unless the file was read whole; the file as it was is kept as <file>.bak.
    const byHand = `Fix that, pass --file <path>, or add the snippet of 'toolwright config ${client}' by hand.`;
    const existing = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw fileError(error, 'read', file, byHand);
    });
    const { text, replaced } = mergeClientConfig(existing, clientConfig(client, name, launch), file);
    for (const note of headerNotes(client, launch)) println(io.stderr, io.err.yellow(note));
    if (existing?.startsWith(BOM)) println(io.stderr, io.err.dim(`${file} starts with a byte-order mark: the new file has none (JSON readers may refuse it).`));
    const verb = replaced ? 'Replaced' : 'Added';
    if (booleanOption(args, 'dry-run')) {
      io.stdout.write(text);
      println(io.stderr, io.err.dim(`Dry run: would write ${file} (${verb.toLowerCase()} '${name}'${existing === undefined ? ', a new file' : ''}). Nothing was changed.`));
      return ExitCode.Ok;
    }
    const writing = async (path: string, write: () => Promise<unknown>) => {
      await write().catch((error: unknown) => {
        throw fileError(error, 'write', path, byHand);
      });
    };
    // A header's value written as given may be a secret: a new file is its owner's alone; an existing one keeps its mode.
    const secret = literalHeaderNames(launch).length > 0;
    await writing(file, () => mkdir(dirname(file), { recursive: true }));
    if (existing !== undefined) await writing(`${file}.bak`, () => copyFile(file, `${file}.bak`));
    await writing(file, () => writeFile(file, text, secret ? { mode: 0o600 } : {}));
    if (secret && process.platform !== 'win32') {
      const mode = (await stat(file)).mode & 0o777;
      if (existing === undefined) println(io.stderr, io.err.dim(`${file} is new: it was created readable and writable by you alone (mode ${mode.toString(8)}).`));
      else if ((mode & 0o077) !== 0)
        println(
          io.stderr,
          io.err.yellow(
            `Warning: ${file} keeps its mode (${mode.toString(8)}): other users of this machine can read the header's value in it. Run chmod 600 ${shellQuoted(file)} to keep it to yourself.`,
          ),
        );
    }
    println(io.stdout, `${io.out.green(verb)} '${name}' in ${file}${existing === undefined ? '' : ` (the previous file is ${file}.bak)`}. Restart ${CLIENTS[client].label} to use it.`);
    return ExitCode.Ok;
  },
};
