import { MCP_REMOTE_VERSION } from '../generate/versions';

/** The MCP clients `toolwright config` and generated READMEs know how to configure. */
export const CLIENT_NAMES = ['claude', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/** How a client reaches the server: it starts a process (stdio), or it connects to a URL. */
export type ServerLaunch = { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly kind: 'http'; readonly url: string };

export interface ClientInfo {
  readonly label: string;
  /** Where the snippet goes. */
  readonly file: string;
}

export const CLIENTS: Readonly<Record<ClientName, ClientInfo>> = {
  claude: {
    label: 'Claude Desktop',
    file: 'claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\, Linux: ~/.config/Claude/)',
  },
  cursor: { label: 'Cursor', file: '.cursor/mcp.json in the project, or ~/.cursor/mcp.json for every project' },
  vscode: { label: 'VS Code', file: '.vscode/mcp.json in the workspace' },
};

/**
 * The configuration object for one client. Claude Desktop's config file only starts local
 * processes, so an HTTP server is reached through the `mcp-remote` bridge there, at an exact
 * version (`npx -y` would otherwise run whatever the registry has today).
 */
export function clientConfig(client: ClientName, serverName: string, launch: ServerLaunch): Record<string, unknown> {
  switch (client) {
    case 'claude':
      return {
        mcpServers: {
          [serverName]: launch.kind === 'stdio' ? { command: launch.command, args: [...launch.args] } : { command: 'npx', args: ['-y', `mcp-remote@${MCP_REMOTE_VERSION}`, launch.url] },
        },
      };
    case 'cursor':
      return { mcpServers: { [serverName]: launch.kind === 'stdio' ? { command: launch.command, args: [...launch.args] } : { url: launch.url } } };
    case 'vscode':
      return {
        servers: {
          [serverName]: launch.kind === 'stdio' ? { type: 'stdio', command: launch.command, args: [...launch.args] } : { type: 'http', url: launch.url },
        },
      };
  }
}

export function isClientName(value: string): value is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(value);
}
