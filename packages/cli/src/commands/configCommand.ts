import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { CLIENT_NAMES, CLIENTS, clientConfig, headerNotes } from '../config/clientConfig';
import { LAUNCH_HELP, LAUNCH_OPTIONS, serverLaunch } from '../config/serverLaunch';

export const configCommand: Command = {
  name: 'config',
  summary: 'Print the configuration snippet for Claude Desktop, Cursor or VS Code',
  options: LAUNCH_OPTIONS,
  help: `Usage: toolwright config <claude|cursor|vscode> [entry] [options]

Print the JSON that registers this project's server with an MCP client, with real paths.
stdio servers are started by the client (node <entry>); HTTP servers are reached by URL
(Claude Desktop through the mcp-remote bridge).

${LAUNCH_HELP}
  -h, --help         show this help

Where the snippet goes:
${CLIENT_NAMES.map((c) => `  ${CLIENTS[c].label}: ${CLIENTS[c].file}`).join('\n')}

'toolwright install <client>' writes it into the client's file for you.

Exit codes: 0 printed, 2 invalid arguments.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    const { client, name, launch } = serverLaunch(args, io);
    println(io.stdout, JSON.stringify(clientConfig(client, name, launch), null, 2));
    for (const note of headerNotes(client, launch)) println(io.stderr, io.err.yellow(note));
    println(
      io.stderr,
      io.err.dim(
        `Add this to ${CLIENTS[client].file}${client === 'vscode' && launch.kind === 'stdio' ? ' (${workspaceFolder} is the folder with package.json)' : ''}, or run 'toolwright install ${client}'.`,
      ),
    );
    return ExitCode.Ok;
  },
};
