import type { IncomingMessage } from 'node:http';
import type { AuthInfo } from '@toolwright/core';
import type { HttpAuthOptions } from './HttpAuthOptions';
import type { ProtectedResourceMetadata } from './protectedResourceMetadata';

export type AuthOutcome =
  | { readonly ok: true; readonly authInfo: AuthInfo | undefined }
  | { readonly ok: false; readonly status: 401 | 403; readonly challenge: string; readonly body: { error: string; error_description: string } };

/**
 * Compiles the bearer check for one endpoint: reads `Authorization: Bearer`, verifies the
 * token, checks expiry, audience and the endpoint-wide scopes, and builds the
 * `WWW-Authenticate` challenge (with `resource_metadata`, RFC 9728) for refusals.
 */
export function createAuthenticator(options: HttpAuthOptions, metadata: ProtectedResourceMetadata): (req: IncomingMessage) => Promise<AuthOutcome> {
  const required = options.requiredScopes ?? [];
  const resource = normalizeResource(metadata.resource);
  const metadataUrl = metadata.url;
  const scopeHint = required.length > 0 ? `, scope="${required.join(' ')}"` : '';
  const refuse = (status: 401 | 403, error: string, description: string, scope = scopeHint): AuthOutcome => ({
    ok: false,
    status,
    challenge: `Bearer error="${error}", error_description="${description.replace(/"/g, "'")}"${scope}, resource_metadata="${metadataUrl}"`,
    body: { error, error_description: description },
  });

  return async (req) => {
    const header = req.headers.authorization;
    if (header === undefined) {
      if (options.allowAnonymous) return { ok: true, authInfo: undefined };
      return {
        ok: false,
        status: 401,
        challenge: `Bearer resource_metadata="${metadataUrl}"${scopeHint}`,
        body: { error: 'invalid_request', error_description: 'This server requires a bearer token in the Authorization header.' },
      };
    }
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) return refuse(401, 'invalid_request', 'The Authorization header must be "Bearer <token>".');
    let authInfo: AuthInfo | undefined;
    try {
      authInfo = await options.verifyToken(match[1]);
    } catch (error) {
      return refuse(401, 'invalid_token', `The access token is invalid: ${(error as Error).message ?? 'verification failed'}.`);
    }
    if (!authInfo) return refuse(401, 'invalid_token', 'The access token is invalid.');
    if (authInfo.expiresAt !== undefined && authInfo.expiresAt * 1000 <= Date.now()) return refuse(401, 'invalid_token', 'The access token has expired.');
    if (authInfo.resource !== undefined && normalizeResource(String(authInfo.resource)) !== resource) {
      return refuse(401, 'invalid_token', 'The access token was issued for another resource.');
    }
    const missing = required.filter((s) => !authInfo!.scopes.includes(s));
    if (missing.length > 0)
      return refuse(403, 'insufficient_scope', `The access token lacks the scope(s): ${missing.join(' ')}.`, `, scope="${[...new Set([...required, ...authInfo.scopes])].join(' ')}"`);
    return { ok: true, authInfo: { ...authInfo, token: authInfo.token || match[1] } };
  };
}

/** RFC 8707 resource comparison: ignore a fragment and a single trailing slash. */
function normalizeResource(value: string): string {
  return value.replace(/#.*$/, '').replace(/\/$/, '');
}
