import type { AuthInfo } from '@toolwright/core';
import type { HttpAuthOptions } from '@toolwright/server/auth';

/**
 * Bearer-token auth for the HTTP endpoint, from `MCP_TOKENS`: `token=client` pairs separated
 * by commas, e.g. `MCP_TOKENS="s3cret=ci,0ther=alice"`. Undefined (no auth) when it is unset.
 * Static tokens suit a private deployment; for OAuth, use `jwtVerifier` from
 * `@toolwright/server/auth` with your authorization server instead.
 */
export function tokenAuth(env: NodeJS.ProcessEnv, resource?: string): HttpAuthOptions | undefined {
  if (!env.MCP_TOKENS) return undefined;
  const clients = new Map(
    env.MCP_TOKENS.split(',').map((pair) => {
      const [token, clientId] = pair.split('=').map((s) => s.trim());
      if (!token || !clientId) throw new Error(`MCP_TOKENS: '${pair}' is not token=client. Example: MCP_TOKENS="s3cret=ci"`);
      return [token, clientId] as const;
    }),
  );
  return {
    resource,
    authorizationServers: [env.MCP_AUTH_SERVER ?? 'https://auth.example.com'],
    verifyToken: (token): AuthInfo | undefined => {
      const clientId = clients.get(token);
      return clientId === undefined ? undefined : { token, clientId, scopes: [] }; // undefined -> 401
    },
  };
}
