import { MCP_REMOTE_VERSION } from '../generate/versions';

/** The MCP clients `toolwright config` and generated READMEs know how to configure. */
export const CLIENT_NAMES = ['claude', 'cursor', 'vscode'] as const;
export type ClientName = (typeof CLIENT_NAMES)[number];

/**
 * How a client reaches the server: it starts a process (stdio), or it connects to a URL, with
 * headers whose values may name environment variables as `${env:NAME}`.
 */
export type ServerLaunch =
  { readonly kind: 'stdio'; readonly command: string; readonly args: readonly string[] } | { readonly kind: 'http'; readonly url: string; readonly headers?: Readonly<Record<string, string>> };

/** A `${env:NAME}` reference in a header value: Cursor's syntax, translated for the other clients. */
const ENV_REF = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g;

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
 * version (`npx -y` would otherwise run whatever the registry has today). Headers: Cursor reads
 * `${env:NAME}` itself; VS Code asks for each variable once (`${input:NAME}`, stored as a
 * secret); mcp-remote reads `${NAME}` from the `env` Claude Desktop gives it.
 */
export function clientConfig(client: ClientName, serverName: string, launch: ServerLaunch): Record<string, unknown> {
  if (launch.kind === 'stdio') {
    const server = { command: launch.command, args: [...launch.args] };
    return client === 'vscode' ? { servers: { [serverName]: { type: 'stdio', ...server } } } : { mcpServers: { [serverName]: server } };
  }
  const headers = Object.entries(launch.headers ?? {});
  const variables = [...new Set(headers.flatMap(([, value]) => [...value.matchAll(ENV_REF)].map((m) => m[1]!)))];
  const rewrite = (to: (name: string) => string) => Object.fromEntries(headers.map(([name, value]) => [name, value.replace(ENV_REF, (_, v: string) => to(v))]));
  switch (client) {
    case 'claude': {
      const headerArgs = Object.entries(rewrite((v) => `\${${v}}`)).flatMap(([name, value]) => ['--header', `${name}:${value}`]);
      const env = variables.length > 0 ? { env: Object.fromEntries(variables.map((v) => [v, ''])) } : {};
      return { mcpServers: { [serverName]: { command: 'npx', args: ['-y', `mcp-remote@${MCP_REMOTE_VERSION}`, launch.url, ...headerArgs], ...env } } };
    }
    case 'cursor':
      return { mcpServers: { [serverName]: { url: launch.url, ...(headers.length > 0 && { headers: launch.headers }) } } };
    case 'vscode': {
      const server = { type: 'http', url: launch.url, ...(headers.length > 0 && { headers: rewrite((v) => `\${input:${v}}`) }) };
      const inputs = variables.map((v) => ({ type: 'promptString', id: v, description: `${v} for ${serverName}`, password: true }));
      return { ...(inputs.length > 0 && { inputs }), servers: { [serverName]: server } };
    }
  }
}

/** What the user must know about the headers in a printed or written config (for stderr). */
export function headerNotes(client: ClientName, launch: ServerLaunch): string[] {
  if (launch.kind === 'stdio') return [];
  const headers = Object.entries(launch.headers ?? {});
  const notes = literalHeaderNames(launch).map(
    (name) =>
      `Warning: the value of header '${name}' is written into the config as given: anyone who can read the file can read it. For a secret, pass a variable instead, e.g. --header '${name}: Bearer \${env:MCP_TOKEN}'.`,
  );
  const variables = headers.some(([, value]) => value.search(ENV_REF) >= 0);
  if (variables && client === 'claude') notes.push('Claude Desktop does not pass your shell\'s environment to mcp-remote: put each variable\'s value in the "env" block.');
  return notes;
}

/** The headers whose values go into the config as given (no `${env:NAME}` in them): what anyone who reads the file can read. */
export function literalHeaderNames(launch: ServerLaunch): string[] {
  if (launch.kind === 'stdio') return [];
  return Object.entries(launch.headers ?? {})
    .filter(([, value]) => value.search(ENV_REF) < 0)
    .map(([name]) => name);
}

export function isClientName(value: string): value is ClientName {
  return (CLIENT_NAMES as readonly string[]).includes(value);
}
