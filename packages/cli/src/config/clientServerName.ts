/**
 * What a server may be called in a client's config: ASCII letters, digits, '-' and '_', 1 to 64
 * characters. JSON takes any key, but the clients do not: Claude Code and GitHub Copilot (which
 * also reads `.vscode/mcp.json`) refuse a name with a space or a '.', and clients prefix each
 * tool's name with the server's when they hand tools to a model, whose function names allow
 * these characters only (MCP itself allows '.' and 128 characters in a tool name).
 */
const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const MAX_LENGTH = 64;

/** The rule, in words, for messages and help. */
export const SERVER_NAME_RULE = "letters, digits, '-' and '_', 1 to 64 characters";

/** The name a project's server gets in a client's config when none is given: the package name without its scope, made valid. */
export function clientServerName(packageName: string | undefined): string {
  return cleanServerName((packageName ?? '').replace(/^@[^/]+\//, '')) ?? 'server';
}

/** Why `name` cannot key a server in a client's config (with a valid name to use instead), or undefined when it can. */
export function serverNameProblem(name: string): string | undefined {
  if (SERVER_NAME.test(name)) return undefined;
  const cleaned = cleanServerName(name);
  const fix = cleaned === undefined ? "e.g. --name 'my-server'" : `e.g. --name '${cleaned}'`;
  return `Invalid server name '${name}': MCP clients accept ${SERVER_NAME_RULE} (some refuse spaces and dots). Use ${fix}.`;
}

/** `name` with each run of other characters replaced by '-', cut to 64 characters; undefined when no letter or digit is left. */
function cleanServerName(name: string): string | undefined {
  const cleaned = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .slice(0, MAX_LENGTH)
    .replace(/^-+|-+$/g, '');
  return /[A-Za-z0-9]/.test(cleaned) ? cleaned : undefined;
}
