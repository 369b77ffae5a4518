import { homedir } from 'node:os';
import { join } from 'node:path';
import type { ClientName } from './clientConfig';

/**
 * The file a client reads its MCP servers from. Claude Desktop has one per user; Cursor
 * reads the project's `.cursor/mcp.json` (or, with `global`, the user's `~/.cursor/mcp.json`);
 * VS Code reads the workspace's `.vscode/mcp.json`.
 */
export function clientConfigFile(client: ClientName, projectDir: string, options: { global?: boolean; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform; home?: string } = {}): string {
  const { env = process.env, platform = process.platform, home = homedir() } = options;
  switch (client) {
    case 'claude':
      if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json');
      if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Claude', 'claude_desktop_config.json');
      return join(env.XDG_CONFIG_HOME ?? join(home, '.config'), 'Claude', 'claude_desktop_config.json');
    case 'cursor':
      return join(options.global ? home : projectDir, '.cursor', 'mcp.json');
    case 'vscode':
      return join(projectDir, '.vscode', 'mcp.json');
  }
}
