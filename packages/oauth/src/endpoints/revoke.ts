import { authenticateClient, spentAssertion } from '../clientAuthentication';
import { loadGrant, readRefreshToken, revokeGrant } from '../grants';
import type { OAuthContext } from '../OAuthContext';
import { readJson } from '../OAuthContext';
import { OPEN_ORIGIN, oauthError, readForm, repeatedParameter } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';
import { sha256 } from '../webCrypto';

/** The methods the revocation endpoint serves. */
export const REVOKE_METHODS: readonly string[] = ['POST'];

/**
 * Token revocation (RFC 7009): a refresh token or an access token of this client revokes its
 * whole grant. Unknown, expired or foreign tokens get 200 too (nothing tells a caller whether a
 * token existed).
 */
export async function revoke(context: OAuthContext, request: Request, onRevoked?: (grantId: string) => Promise<void>): Promise<Response> {
  if (!REVOKE_METHODS.includes(request.method)) return oauthError('invalid_request', 'the revocation endpoint takes POST', 405, { Allow: allowOf(REVOKE_METHODS) });
  const form = await readForm(request);
  if (!form) return oauthError('invalid_request', 'send an application/x-www-form-urlencoded body');
  const repeated = repeatedParameter(form);
  if (repeated !== undefined) return oauthError('invalid_request', `${repeated} is repeated`);
  const token = form.get('token');
  if (!token) return oauthError('invalid_request', 'send token');
  const authenticated = await authenticateClient(context, request, form);
  if (!authenticated.ok) {
    return oauthError(authenticated.error, authenticated.description, authenticated.status, authenticated.status === 401 ? { 'WWW-Authenticate': 'Basic realm="revoke"' } : {});
  }
  const grantId = await grantOf(context, token);
  if (grantId) {
    const grant = await loadGrant(context, grantId);
    if (grant && grant.clientId === authenticated.client.clientId) {
      // Only a revocation spends the client's assertion: a request that changes nothing keeps nothing.
      if (!(await authenticated.spend())) return spentAssertion('revoke');
      await revokeGrant(context, grantId);
      await onRevoked?.(grantId);
    }
  }
  return new Response(null, { status: 200, headers: { 'Cache-Control': 'no-store', ...OPEN_ORIGIN } });
}

async function grantOf(context: OAuthContext, token: string): Promise<string | undefined> {
  const refresh = await readJson<{ grantId: string }>(context.store, `rt:${await sha256(token)}`);
  if (refresh) return refresh.grantId;
  // A refresh token of this server rotated away since (its MAC checks out): it still names its grant.
  const issued = await readRefreshToken(context, token);
  if (issued && issued.expiresAt > context.now()) return issued.grantId;
  // An access token: its signature is checked before its sid is trusted.
  const claims = await context.signer.verifySignature(token);
  return claims && claims.iss === context.issuer && typeof claims.sid === 'string' ? claims.sid : undefined;
}
