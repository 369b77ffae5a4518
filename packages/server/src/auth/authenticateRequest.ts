import { ConfigError } from '@toolwright/core';
import type { AuthInfo } from '@toolwright/core';
import { joinedHeader } from '@toolwright/core/internal';
import type { HttpAuthOptions } from './HttpAuthOptions';
import type { ProtectedResourceMetadata } from './protectedResourceMetadata';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS, isExpired } from './isExpired';
import { logSafe } from './logSafe';
import { isScopeToken } from './isScopeToken';

export type AuthOutcome =
  | { readonly ok: true; readonly authInfo: AuthInfo | undefined }
  | {
      readonly ok: false;
      readonly status: 401 | 403;
      readonly challenge: string;
      readonly body: { error: string; error_description: string };
      /** Why, for the request log only (one line, control characters escaped): never sent to the client. */
      readonly detail?: string;
    };

/** Where the bearer token is read: node's `IncomingMessage` is one, and a fetch handler passes `{ headers: { authorization } }`. */
export interface BearerSource {
  readonly headers: { readonly authorization?: string | undefined };
  /** Node's header lines as sent: node keeps only the first of two Authorization headers, these show the others. */
  readonly rawHeaders?: readonly string[];
}

/** The `error_description` of each refusal: fixed text, so nothing the caller sent reaches a header or the body. */
const DESCRIPTIONS = {
  missing: 'This server requires a bearer token in the Authorization header.',
  malformed: 'Send one Authorization header, "Bearer <token>".',
  invalid: 'The access token is invalid.',
  expired: 'The access token has expired.',
  foreign: 'The access token was issued for another resource.',
  scope: 'The access token lacks a scope this server requires.',
} as const;

/**
 * Compiles the bearer check for one endpoint: reads `Authorization: Bearer`, verifies the
 * token, checks expiry (with the verifier's clock tolerance), audience and the endpoint-wide
 * scopes, and builds the `WWW-Authenticate` challenge (with `resource_metadata`, RFC 9728, when there is metadata) for
 * refusals. A refusal's `error_description` is one of a few fixed texts: what the verifier
 * said (jose quotes the token's own, unverified header in some messages) goes to the request
 * log as the outcome's `detail`, never into a header or the body.
 * Throws a `ConfigError` for options that contradict each other.
 */
export function createAuthenticator(options: HttpAuthOptions, metadata: ProtectedResourceMetadata): (req: BearerSource) => Promise<AuthOutcome> {
  const required = (options.requiredScopes ?? []).map((scope, i) => checkScope(scope, i));
  if (options.allowAnonymous && required.length > 0) {
    throw new ConfigError(
      `Toolwright: auth.allowAnonymous and auth.requiredScopes (${required.join(' ')}) cannot be combined: requiredScopes must be held by every request, and an anonymous caller holds no scope. ` +
        'Remove allowAnonymous to require a token with these scopes of every caller, or remove requiredScopes and put the scopes on the tools, resources and prompts that need them (@RequireScopes), leaving the rest open to anonymous callers.',
    );
  }
  const tolerance = toleranceOf(options);
  const resource = normalizeResource(metadata.resource);
  const scopeHint = required.length > 0 ? `, scope="${required.join(' ')}"` : '';
  const refuse = (status: 401 | 403, error: string, description: string, detail?: string, scope = scopeHint): AuthOutcome => ({
    ok: false,
    status,
    challenge: `Bearer error="${error}", error_description="${description}"${scope}, ${metadata.challengeParam}`,
    body: { error, error_description: description },
    ...(detail !== undefined && { detail }),
  });

  return async (req) => {
    // As a fetch handler's `Headers` reads it: two Authorization headers (RFC 9110 §5.3: the field is no list) come joined, which is no `Bearer <token>`, so both servers refuse them alike.
    const header = joinedHeader(req, 'authorization');
    if (header === undefined) {
      if (options.allowAnonymous) return { ok: true, authInfo: undefined };
      return {
        ok: false,
        status: 401,
        challenge: `Bearer ${metadata.challengeParam}${scopeHint}`,
        body: { error: 'invalid_request', error_description: DESCRIPTIONS.missing },
      };
    }
    const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match) return refuse(401, 'invalid_request', DESCRIPTIONS.malformed);
    let authInfo: AuthInfo | undefined;
    try {
      authInfo = await options.verifyToken(match[1]);
    } catch (error) {
      return refuse(401, 'invalid_token', DESCRIPTIONS.invalid, `token refused by the verifier: ${logSafe(error)}`);
    }
    if (!authInfo) return refuse(401, 'invalid_token', DESCRIPTIONS.invalid, 'token refused by the verifier (it returned no caller)');
    if (isExpired(authInfo.expiresAt, tolerance)) return refuse(401, 'invalid_token', DESCRIPTIONS.expired, `token expired at ${logSafe(authInfo.expiresAt)} (clock tolerance ${tolerance} s)`);
    if (authInfo.resource !== undefined && normalizeResource(String(authInfo.resource)) !== resource) {
      return refuse(401, 'invalid_token', DESCRIPTIONS.foreign, `token issued for ${logSafe(String(authInfo.resource))}`);
    }
    const missing = required.filter((s) => !authInfo!.scopes.includes(s));
    if (missing.length > 0) {
      // Scopes to request: the required ones and those the token has (as far as they can be quoted: a verifier's scopes are not ours).
      const wanted = [...new Set([...required, ...authInfo.scopes.filter(isScopeToken)])].join(' ');
      return refuse(403, 'insufficient_scope', DESCRIPTIONS.scope, `token lacks the scope(s) ${missing.join(' ')}`, `, scope="${wanted}"`);
    }
    return { ok: true, authInfo: { ...authInfo, token: authInfo.token || match[1] } };
  };
}

function checkScope(scope: string, i: number): string {
  if (isScopeToken(scope)) return scope;
  throw new ConfigError(
    `Toolwright: auth.requiredScopes[${i}] is ${JSON.stringify(scope)}, which is not a scope (RFC 6749 §3.3: printable ASCII without spaces, '"' or '\\'). Name each scope on its own.`,
  );
}

function toleranceOf(options: HttpAuthOptions): number {
  const seconds = options.clockToleranceSeconds ?? options.verifyToken.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!(Number.isFinite(seconds) && seconds >= 0)) {
    throw new ConfigError(`Toolwright: auth.clockToleranceSeconds must be a number of seconds, 0 or more, got ${String(seconds)}. The default is ${DEFAULT_CLOCK_TOLERANCE_SECONDS}.`);
  }
  return seconds;
}

/** RFC 8707 resource comparison: ignore a fragment and a single trailing slash. */
function normalizeResource(value: string): string {
  return value.replace(/#.*$/, '').replace(/\/$/, '');
}
