import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { resolveEntry } from '../client/resolveEntry';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { CLIENT_NAMES, CLIENTS, clientConfig, isClientName, type ServerLaunch } from '../config/clientConfig';
import { HTTP_URL } from '../generate/projectFiles';

export const configCommand: Command = {
  name: 'config',
  summary: 'Print the configuration snippet for Claude Desktop, Cursor or VS Code',
  options: {
    name: { type: 'string', short: 'n' },
    http: { type: 'boolean' },
    url: { type: 'string' },
  },
  help: `Usage: toolwright config <claude|cursor|vscode> [entry] [options]

Print the JSON that registers this project's server with an MCP client, with real paths.
stdio servers are started by the client (node <entry>); HTTP servers are reached by URL
(Claude Desktop through the mcp-remote bridge).

Arguments:
  <client>           ${CLIENT_NAMES.map((c) => `${c} (${CLIENTS[c].label})`).join(', ')}
  [entry]            the compiled server (default: package.json "main", else dist/server.js)

Options:
  -n, --name <name>  the key in the client's config (default: package name without scope)
      --http         connect over HTTP (default when package.json's start script uses --http)
      --url <url>    the HTTP endpoint (default: ${HTTP_URL}); implies --http
  -h, --help         show this help

Where the snippet goes:
${CLIENT_NAMES.map((c) => `  ${CLIENTS[c].label}: ${CLIENTS[c].file}`).join('\n')}

Exit codes: 0 printed, 2 invalid arguments.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const [client, entryArg, ...extra] = args.positionals;
    if (client === undefined) throw new UsageError(`Expected the client: ${CLIENT_NAMES.join(', ')}.`);
    if (!isClientName(client)) throw new UsageError(`Unknown client '${client}'. Use one of: ${CLIENT_NAMES.join(', ')}.`);
    if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.`);
    const entry = resolveEntry(io.cwd, entryArg);
    const pkg = readPackage(entry.projectDir);
    const name = stringOption(args, 'name') ?? (pkg.name ?? 'server').replace(/^@[^/]+\//, '');
    const url = stringOption(args, 'url');
    const http = url !== undefined || booleanOption(args, 'http') || /--http\b/.test(pkg.scripts?.start ?? '');
    const launch: ServerLaunch = http
      ? { kind: 'http', url: url ?? HTTP_URL }
      : { kind: 'stdio', command: 'node', args: [client === 'vscode' ? `\${workspaceFolder}/${relative(entry.projectDir, entry.file).split('\\').join('/')}` : entry.file] };
    println(io.stdout, JSON.stringify(clientConfig(client, name, launch), null, 2));
    println(io.stderr, io.err.dim(`Add this to ${CLIENTS[client].file}${client === 'vscode' && !http ? ' (${workspaceFolder} is the folder with package.json)' : ''}.`));
    return ExitCode.Ok;
  },
};

function readPackage(dir: string): { name?: string; scripts?: Record<string, string> } {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; scripts?: Record<string, string> };
  } catch {
    return {};
  }
}
