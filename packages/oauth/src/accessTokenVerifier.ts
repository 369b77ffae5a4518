import type { AuthInfo } from '@toolwright/core';
import type { TokenVerifier } from '@toolwright/server/auth';
import { loadGrant } from './grants';
import type { OAuthContext } from './OAuthContext';

const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Checks this server's access tokens for one MCP endpoint, as `jwtVerifier` would (signature,
 * `typ: at+jwt`, issuer, audience = `resource`, expiry and not-before with 30 s tolerance, a
 * string `sub`; the same AuthInfo: scopes, client, `extra.sub`, `extra.roles`, `extra.claims`),
 * plus one thing it cannot: that the token's grant (`sid`) was not revoked. Runs on Web Crypto
 * alone, so edge runtimes need no JWT library.
 */
export function accessTokenVerifier(context: OAuthContext, resource: string): TokenVerifier {
  const verify = async (token: string): Promise<AuthInfo | undefined> => {
    const claims = await context.signer.verifySignature(token);
    if (!claims) return undefined;
    const now = context.now() / 1000;
    if (claims.iss !== context.issuer) return undefined;
    const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!audience.includes(resource)) return undefined;
    if (typeof claims.exp !== 'number' || claims.exp + CLOCK_TOLERANCE_SECONDS <= now) return undefined;
    if (typeof claims.nbf === 'number' && claims.nbf - CLOCK_TOLERANCE_SECONDS > now) return undefined;
    if (typeof claims.sub !== 'string' || claims.sub === '' || typeof claims.sid !== 'string' || typeof claims.client_id !== 'string') return undefined;
    const grant = await loadGrant(context, claims.sid);
    if (!grant || grant.clientId !== claims.client_id) return undefined;
    const rawRoles = claims[context.rolesClaim];
    const roles = Array.isArray(rawRoles) ? rawRoles.map(String) : typeof rawRoles === 'string' ? rawRoles.split(' ').filter(Boolean) : [];
    const scopes = typeof claims.scope === 'string' ? claims.scope.split(' ').filter(Boolean) : [];
    return { token, clientId: claims.client_id, scopes, expiresAt: claims.exp, resource: new URL(resource), extra: { sub: claims.sub, roles, claims } };
  };
  return Object.assign(verify, { clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS });
}
