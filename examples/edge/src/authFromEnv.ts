import { jwtVerifier, type HttpAuthOptions, type JwkSet } from '@toolwright/server/auth';

/**
 * Bearer auth from the environment, when `JWKS` is set: JWTs from `ISSUER` for `RESOURCE`,
 * checked by `jwtVerifier` (jose, on the runtime's Web Crypto). Undefined otherwise (no auth).
 */
export function authFromEnv(env: { readonly JWKS?: string; readonly ISSUER?: string; readonly RESOURCE?: string }): HttpAuthOptions | undefined {
  if (!env.JWKS) return undefined;
  const issuer = env.ISSUER ?? 'https://issuer.example.test';
  const resource = env.RESOURCE ?? 'https://mcp.example.test/mcp';
  return { verifyToken: jwtVerifier({ issuer, audience: resource, jwks: JSON.parse(env.JWKS) as JwkSet }), resource, authorizationServers: [issuer] };
}
