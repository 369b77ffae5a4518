import { authenticateClient, spentAssertion } from '../clientAuthentication';
import { GRANT_TYPES } from '../clientMetadata';
import { issueTokens, loadGrant, refreshGrant, revokeGrant } from '../grants';
import type { OAuthContext } from '../OAuthContext';
import { readJson } from '../OAuthContext';
import { json, oauthError, readForm, repeatedParameter } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';
import { isPkceVerifier, verifyPkce } from '../pkce';
import { sha256 } from '../webCrypto';

/** The methods the token endpoint serves. */
export const TOKEN_METHODS: readonly string[] = ['POST'];

/** An authorization code's record: `code:<sha256>`. */
export interface CodeRecord {
  readonly grantId: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly expiresAt: number;
}

/** The token endpoint: `authorization_code` (PKCE S256, exact redirect URI, resource) and `refresh_token` (rotation). */
export async function token(context: OAuthContext, request: Request): Promise<Response> {
  if (!TOKEN_METHODS.includes(request.method)) return oauthError('invalid_request', 'the token endpoint takes POST', 405, { Allow: allowOf(TOKEN_METHODS) });
  const form = await readForm(request);
  if (!form) return oauthError('invalid_request', 'send an application/x-www-form-urlencoded body of at most 16 KiB');
  const repeated = repeatedParameter(form);
  if (repeated !== undefined) return oauthError('invalid_request', `${repeated} is repeated`);
  const authenticated = await authenticateClient(context, request, form);
  if (!authenticated.ok) {
    return oauthError(authenticated.error, authenticated.description, authenticated.status, authenticated.status === 401 ? { 'WWW-Authenticate': 'Basic realm="token"' } : {});
  }
  const client = authenticated.client;
  const grantType = form.get('grant_type');
  if (!grantType) return oauthError('invalid_request', 'send grant_type (authorization_code or refresh_token)');
  // RFC 6749 §5.2: a grant type this server has not is unsupported_grant_type; one it has but the client did not register is unauthorized_client.
  if (!GRANT_TYPES.has(grantType)) return oauthError('unsupported_grant_type', `grant_type '${grantType}' is not supported here: use authorization_code or refresh_token`);
  if (!client.grantTypes.includes(grantType)) {
    return oauthError('unauthorized_client', `grant_type '${grantType}' is not one this client registered (${client.grantTypes.join(', ')})`);
  }
  const resource = form.get('resource') ?? undefined;

  if (grantType === 'authorization_code') {
    const code = form.get('code');
    const verifier = form.get('code_verifier');
    const redirectUri = form.get('redirect_uri');
    if (!code || !verifier || !redirectUri) return oauthError('invalid_request', 'send code, code_verifier and redirect_uri');
    const hash = await sha256(code);
    const record = await readJson<CodeRecord>(context.store, `code:${hash}`);
    if (!record || record.expiresAt <= context.now()) return oauthError('invalid_grant', 'the authorization code is not valid (unknown or expired)');
    // Every check of the request comes before the code is consumed (RFC 6749 §4.1.3, OAuth 2.1 §4.1.3): the code must
    // have been issued to the authenticated client, the PKCE verifier must match (RFC 7636 §4.6), and the request must
    // name the code's redirect_uri and resource. A request failing one is refused and changes nothing: the code stays
    // redeemable by its own client. The replay that §10.5 revokes for is a second redemption that passes them all, so
    // whoever holds a stolen code without its client's credentials and verifier can neither redeem it nor burn it (make
    // the real redemption fail and the grant be revoked). A wrong verifier from the right client is not counted either: a
    // public client's client_id is no secret, so counting it would let anyone holding the code burn it. Guessing is
    // bounded by the verifier itself (RFC 7636 §7.1 asks for 256 bits, not guessed within the code's 60 seconds) and by
    // the token endpoint's rate limit per address.
    if (record.clientId !== client.clientId) return oauthError('invalid_grant', 'the authorization code was issued to another client');
    // The verifier is checked right after the client, before redirect_uri and resource: until it matches, an answer
    // tells no more of the code than that it is valid and this client's, so whoever holds a code without its verifier
    // can neither read its resource (the invalid_target message) nor test redirect_uri values against it.
    // A malformed verifier is a malformed request, told apart from one that does not match.
    if (!isPkceVerifier(verifier)) return oauthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (RFC 7636 section 4.1)');
    if (!(await verifyPkce(verifier, record.codeChallenge))) return oauthError('invalid_grant', 'code_verifier does not match the code_challenge (PKCE S256)');
    if (record.redirectUri !== redirectUri) return oauthError('invalid_grant', 'redirect_uri differs from the one of the authorization request');
    if (resource !== undefined && resource !== record.resource) return oauthError('invalid_target', `the code is for resource ${record.resource}, not ${resource}`);
    // Used before and its grant already revoked: nothing left to change, so nothing is spent.
    if (!(await loadGrant(context, record.grantId)) && (await context.store.get(`code-used:${hash}`)) !== undefined)
      return oauthError('invalid_grant', 'the authorization code was already used: the tokens issued for it are revoked');
    // What follows changes the store (the code is spent, a grant revoked, tokens issued): the client's assertion is spent first, so a replayed one changes nothing.
    if (!(await authenticated.spend())) return spentAssertion('token');
    // A code works once: a second redemption is a replay, and what the first issued is revoked (RFC 6749 §4.1.2, §10.5).
    // The code's record stays until it expires: a replay must still find the grant to revoke.
    if (!(await context.store.add(`code-used:${hash}`, '1', context.ttl.code))) {
      await revokeGrant(context, record.grantId);
      return oauthError('invalid_grant', 'the authorization code was already used: the tokens issued for it are revoked');
    }
    // Loaded again here: a replay racing this request may have revoked the grant since.
    const grant = await loadGrant(context, record.grantId);
    if (!grant) return oauthError('invalid_grant', 'the grant of this code was revoked');
    return json(await issueTokens(context, grant));
  }

  // refresh_token
  const refreshToken = form.get('refresh_token');
  if (!refreshToken) return oauthError('invalid_request', 'send refresh_token');
  const refreshed = await refreshGrant(context, refreshToken, client.clientId, form.get('scope') ?? undefined, resource, authenticated.spend);
  if ('spent' in refreshed) return spentAssertion('token');
  if (!refreshed.ok) return oauthError(refreshed.error, refreshed.description);
  return json(refreshed.tokens);
}
