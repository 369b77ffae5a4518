import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { requestHeaders } from '../client/requestHeaders';
import { resolveEntry } from '../client/resolveEntry';
import { serverUrl } from '../client/serverUrl';
import type { OptionSpec, ParsedArgs } from '../cli/Command';
import type { Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { HTTP_URL } from '../generate/projectFiles';
import { CLIENT_NAMES, CLIENTS, isClientName, type ClientName, type ServerLaunch } from './clientConfig';
import { didYouMean } from '../cli/didYouMean';
import { clientServerName, SERVER_NAME_RULE, serverNameProblem } from './clientServerName';

/** The options `config` and `install` share: which client, the server's name, and how to reach it. */
export const LAUNCH_OPTIONS = {
  name: { type: 'string', short: 'n' },
  http: { type: 'boolean' },
  url: { type: 'string' },
  header: { type: 'string', short: 'H', multiple: true },
} satisfies Record<string, OptionSpec>;

export const LAUNCH_HELP = `Arguments:
  <client>           ${CLIENT_NAMES.map((c) => `${c} (${CLIENTS[c].label})`).join(', ')}
  [entry]            the compiled server (default: package.json "main", else dist/server.js)

Options:
  -n, --name <name>  the key in the client's config: ${SERVER_NAME_RULE}
                     (default: the package name without scope, other characters as '-')
      --http         connect over HTTP (default when package.json's start script uses --http)
      --url <url>    the HTTP endpoint (default: ${HTTP_URL}); implies --http
  -H, --header <h>   with --http: a header the client sends, 'Name: value' (repeatable); write
                     a secret as a variable, e.g. 'Authorization: Bearer \${env:MCP_TOKEN}'
                     (VS Code asks for it once; Claude Desktop reads it from the "env" block)`;

/** Which client to configure, and how it reaches this project's server, from the command line and package.json. */
export function serverLaunch(args: ParsedArgs, io: Io): { client: ClientName; name: string; launch: ServerLaunch; projectDir: string } {
  const [client, entryArg, ...extra] = args.positionals;
  if (client === undefined) throw new UsageError(`Expected the client: ${CLIENT_NAMES.join(', ')}.`);
  if (!isClientName(client)) throw new UsageError(`Unknown client '${client}'. Use one of: ${CLIENT_NAMES.join(', ')}.${didYouMean(client, CLIENT_NAMES)}`);
  if (extra.length > 0) throw new UsageError(`Unexpected argument '${extra[0]}'.`);
  const given = stringOption(args, 'name');
  const problem = given === undefined ? undefined : serverNameProblem(given);
  if (problem !== undefined) throw new UsageError(problem);
  const entry = resolveEntry(io.cwd, entryArg);
  const pkg = readPackage(entry.projectDir);
  const name = given ?? clientServerName(typeof pkg.name === 'string' ? pkg.name : undefined);
  const url = stringOption(args, 'url');
  const http = url !== undefined || booleanOption(args, 'http') || /--http\b/.test(pkg.scripts?.start ?? '');
  const headerValues = args.values.header;
  const headers = requestHeaders(Array.isArray(headerValues) ? headerValues : []);
  if (!http && Object.keys(headers).length > 0) throw new UsageError('--header applies to an HTTP server (--http or --url); a stdio server gets its credentials from its environment.');
  const launch: ServerLaunch = http
    ? { kind: 'http', url: url === undefined ? HTTP_URL : serverUrl(url, "a header (--header 'Authorization: Bearer ${env:MCP_TOKEN}')").href, headers }
    : { kind: 'stdio', command: 'node', args: [client === 'vscode' ? `\${workspaceFolder}/${relative(entry.projectDir, entry.file).split('\\').join('/')}` : entry.file] };
  return { client, name, launch, projectDir: entry.projectDir };
}

function readPackage(dir: string): { name?: string; scripts?: Record<string, string> } {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: string; scripts?: Record<string, string> };
  } catch {
    return {};
  }
}
