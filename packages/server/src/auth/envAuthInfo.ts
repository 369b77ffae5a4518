import type { AuthInfo } from '@toolwright/core';
import type { AuthInfoProvider } from './AuthInfoProvider';

export interface EnvAuthInfoOptions {
  /** Variable with space- or comma-separated scopes. Default `MCP_SCOPES`. */
  scopesVar?: string;
  /** Variable with space- or comma-separated roles. Default `MCP_ROLES`. */
  rolesVar?: string;
  /** Variable naming the client. Default `MCP_CLIENT_ID` (fallback: 'stdio'). */
  clientIdVar?: string;
  /** The environment to read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
}

/**
 * The stdio caller's identity from environment variables set by whoever launches the
 * server (an MCP client config, a supervisor). Stdio servers should not speak OAuth;
 * the launching process is the trust boundary. With none of the variables set the
 * caller is anonymous, so only tools without rules and `@Public()` ones are offered.
 */
export function envAuthInfo(options: EnvAuthInfoOptions = {}): AuthInfoProvider {
  return () => {
    const env = options.env ?? process.env;
    const scopes = split(env[options.scopesVar ?? 'MCP_SCOPES']);
    const roles = split(env[options.rolesVar ?? 'MCP_ROLES']);
    const clientId = env[options.clientIdVar ?? 'MCP_CLIENT_ID'];
    if (scopes.length === 0 && roles.length === 0 && !clientId) return undefined;
    const info: AuthInfo = { token: '', clientId: clientId || 'stdio', scopes, extra: { roles } };
    return info;
  };
}

function split(value: string | undefined): string[] {
  return value ? value.split(/[\s,]+/).filter(Boolean) : [];
}
