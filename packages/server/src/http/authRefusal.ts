import type { AuthOutcome } from '../auth/authenticateRequest';
import type { HttpRefusal } from './HttpRefusal';

/** The answer to a request whose bearer token was refused: 401 or 403, with its `WWW-Authenticate` challenge (RFC 6750, RFC 9728). */
export function authRefusal(outcome: Extract<AuthOutcome, { ok: false }>): HttpRefusal {
  return { status: outcome.status, body: outcome.body, headers: { 'WWW-Authenticate': outcome.challenge } };
}
