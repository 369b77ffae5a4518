import type { AuthInfo } from '@toolwright/core';
import type { HttpAuthOptions } from '@toolwright/server/auth';

/**
 * Bearer-token auth for the HTTP endpoint, from `MCP_TOKENS`: `token=client` pairs separated
 * by commas, e.g. `MCP_TOKENS="s3cret=ci,0ther=alice"`. Without `MCP_TOKENS` it fails closed:
 * it throws (the server refuses to start) unless `MCP_ALLOW_ANONYMOUS=1` asks for a server
 * without auth on purpose, and then returns undefined (every caller is let in).
 * Static tokens suit a private deployment. No authorization server issues them, so none is
 * named: a client without a token gets 401 `Bearer realm="mcp"` and no OAuth metadata to chase.
 * For OAuth, use `jwtVerifier` from `@toolwright/server/auth` and set `authorizationServers`.
 */
export function tokenAuth(env: NodeJS.ProcessEnv, resource?: string): HttpAuthOptions | undefined {
  if (!env.MCP_TOKENS) {
    if (env.MCP_ALLOW_ANONYMOUS === '1') return undefined;
    throw new Error(
      'MCP_TOKENS is not set, so the HTTP server would let every caller in without a token: it does not start. ' +
        'Set MCP_TOKENS to token=client pairs (MCP_TOKENS="s3cret=ci" npm start), ' +
        'or set MCP_ALLOW_ANONYMOUS=1 to serve without authentication on purpose (a local test, never a shared network).',
    );
  }
  const pairs = env.MCP_TOKENS.split(',');
  const clients = new Map(
    pairs.map((pair, i) => {
      // At the last '=': a base64 token ends in '=' (openssl rand -base64 32); a client name has none.
      const at = pair.lastIndexOf('=');
      const token = pair.slice(0, at).trim();
      const clientId = pair.slice(at + 1).trim();
      // The message never repeats the entry: it may hold a token, and it goes to the server's log.
      if (at < 0 || !token || !clientId) throw new Error(`MCP_TOKENS: entry ${i + 1} of ${pairs.length} is not token=client. Example: MCP_TOKENS="s3cret=ci"`);
      return [token, clientId] as const;
    }),
  );
  return {
    resource,
    verifyToken: (token): AuthInfo | undefined => {
      const clientId = clients.get(token);
      return clientId === undefined ? undefined : { token, clientId, scopes: [] }; // undefined -> 401
    },
  };
}
