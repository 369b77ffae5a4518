import { JWT_BEARER_ASSERTION, SPENT_ASSERTION, verifyClientAssertion } from './clientAssertion';
import type { OAuthClient } from './OAuthClient';
import type { OAuthContext } from './OAuthContext';
import { oauthError } from './oauthResponses';
import { sameString, sha256 } from './webCrypto';

/**
 * `spend` marks the request's one-time proof used (a `private_key_jwt` assertion's `jti`; the
 * other methods have none and always get true): false when it was used before, and the request
 * is then refused with {@link spentAssertion}. Call it once, after everything else of the
 * request is checked and before it changes anything, so that a failing request keeps nothing.
 */
export type ClientAuthentication =
  { ok: true; client: OAuthClient; spend: () => Promise<boolean> } | { ok: false; status: 400 | 401; error: 'invalid_client' | 'invalid_request'; description: string };

/**
 * Who is calling the token or revocation endpoint: `client_secret_basic` (Authorization:
 * Basic), `client_secret_post`, `private_key_jwt` (a signed client assertion, RFC 7523), or a
 * public client naming itself with `client_id`. A client must use the method it registered with.
 */
export async function authenticateClient(context: OAuthContext, request: Request, form: URLSearchParams): Promise<ClientAuthentication> {
  let clientId = form.get('client_id') ?? undefined;
  let secret: string | undefined;
  let method: OAuthClient['tokenEndpointAuthMethod'] = 'none';
  const header = request.headers.get('authorization');
  // `Basic` with empty credentials is an attempt to authenticate too (refused below), not a request without credentials.
  const basic = header !== null && /^basic(?: |$)/i.test(header);
  // One way per request (RFC 6749 §2.3): a second set of credentials beside the first is not silently ignored.
  const ways = [basic && 'Basic credentials', form.has('client_secret') && 'client_secret', (form.has('client_assertion') || form.has('client_assertion_type')) && 'client_assertion'].filter(Boolean);
  if (ways.length > 1) {
    return { ok: false, status: 400, error: 'invalid_request', description: `the request authenticates the client more than one way (${ways.join(', ')}): send only the one it registered` };
  }
  if (basic) {
    let decoded: string;
    try {
      decoded = atob(header.slice(6).trim());
    } catch {
      return { ok: false, status: 401, error: 'invalid_client', description: 'the Basic credentials are not base64' };
    }
    const colon = decoded.indexOf(':');
    if (colon < 0) return { ok: false, status: 401, error: 'invalid_client', description: 'the Basic credentials have no colon' };
    const basicId = safeDecode(decoded.slice(0, colon));
    if (clientId !== undefined && clientId !== basicId) return { ok: false, status: 400, error: 'invalid_request', description: 'client_id differs from the Basic credentials' };
    clientId = basicId;
    secret = safeDecode(decoded.slice(colon + 1));
    method = 'client_secret_basic';
  } else if (form.has('client_assertion') || form.has('client_assertion_type')) {
    const assertion = form.get('client_assertion');
    if (form.get('client_assertion_type') !== JWT_BEARER_ASSERTION || !assertion) {
      return { ok: false, status: 401, error: 'invalid_client', description: `send client_assertion with client_assertion_type ${JWT_BEARER_ASSERTION}` };
    }
    if (form.getAll('client_assertion').length > 1) return { ok: false, status: 400, error: 'invalid_request', description: 'client_assertion is repeated' };
    // The client is the assertion's subject; a client_id beside it must name the same client (checked against iss and sub once verified).
    const subject = unverifiedSubject(assertion);
    if (subject === undefined) return { ok: false, status: 401, error: 'invalid_client', description: 'the client assertion names no client (sub)' };
    if (clientId !== undefined && clientId !== subject) return { ok: false, status: 400, error: 'invalid_request', description: 'client_id differs from the client assertion’s sub' };
    clientId = subject;
    method = 'private_key_jwt';
    secret = assertion;
  } else if (form.has('client_secret')) {
    secret = form.get('client_secret')!;
    method = 'client_secret_post';
  }
  if (!clientId) return { ok: false, status: 401, error: 'invalid_client', description: 'the request names no client: send client_id' };
  const found = await context.findClient(clientId);
  if ('error' in found) return { ok: false, status: 401, error: 'invalid_client', description: found.error };
  const client = found.client;
  if (client.tokenEndpointAuthMethod !== method) {
    return { ok: false, status: 401, error: 'invalid_client', description: `this client authenticates with ${client.tokenEndpointAuthMethod}, not ${method}` };
  }
  if (method === 'private_key_jwt') {
    const checked = await verifyClientAssertion(context, client, secret!);
    return checked.ok ? { ok: true, client, spend: checked.spend } : { ok: false, status: 401, error: 'invalid_client', description: checked.description };
  }
  if (method !== 'none' && !(client.clientSecretHash && secret !== undefined && sameString(await sha256(secret), client.clientSecretHash))) {
    return { ok: false, status: 401, error: 'invalid_client', description: 'the client secret is wrong' };
  }
  return { ok: true, client, spend: async () => true };
}

/** The answer to a request whose `private_key_jwt` assertion was spent before (RFC 7523 §3: a `jti` is used once). */
export function spentAssertion(realm: string): Response {
  return oauthError('invalid_client', SPENT_ASSERTION, 401, { 'WWW-Authenticate': `Basic realm="${realm}"` });
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The `sub` of a JWS before its signature is checked: only to find the client whose keys check it. */
function unverifiedSubject(assertion: string): string | undefined {
  try {
    const payload = assertion.split('.')[1] ?? '';
    const claims = JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (payload.length % 4)) % 4))) as { sub?: unknown };
    return typeof claims.sub === 'string' && claims.sub !== '' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}
