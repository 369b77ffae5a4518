import type { AuthInfo } from '@toolwright/core';
import { missingScopes } from '../auth/canAccess';
import { isScopeToken } from '../auth/isScopeToken';
import type { ServerFactory } from '../serving/ServerFactory';

/**
 * The answer to a call of `toolName` by a caller missing some of its scopes (401 or 403 with
 * the scopes to request), when the app gives scope hints; undefined if none is missing, and
 * without hints (then the call is answered as one of an unknown tool, which hides the tool).
 */
export function scopeRefusal(app: ServerFactory, challengeParam: string, toolName: string, auth: AuthInfo | undefined) {
  if (app.scopeHints !== true) return undefined;
  const missing = missingScopes(app.toolAccess(toolName), auth);
  if (missing.length === 0) return undefined;
  // Scopes to request: the missing ones and those the token has, as far as they can be quoted (a verifier's scopes are not ours).
  const wanted = [...new Set([...(auth?.scopes ?? []), ...missing].filter(isScopeToken))].join(' ');
  const status = auth ? 403 : 401;
  const error = auth ? 'insufficient_scope' : 'invalid_request';
  const description = `Tool '${toolName}' requires the scope(s): ${missing.join(' ')}.`;
  return {
    status,
    challenge: `Bearer error="${error}", error_description="${description.replace(/"/g, "'")}", scope="${wanted}", ${challengeParam}`,
    body: { error, error_description: description },
  };
}
