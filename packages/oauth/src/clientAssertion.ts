import type { Jwk } from './jwksUriKeys';
import type { OAuthClient } from './OAuthClient';
import type { OAuthContext } from './OAuthContext';
import { ALGORITHMS, decodeBase64url } from './tokenSigner';
import { sha256 } from './webCrypto';

/** RFC 7523 §2.2: the client assertion type of `private_key_jwt`. */
export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** Clock skew allowed on `exp`, `nbf` and `iat`, in seconds. */
const SKEW_SECONDS = 30;
/** An assertion may live at most this long (from `iat`, or from now): a short-lived proof, not a credential. */
const MAX_LIFETIME_SECONDS = 600;

/** One part of a compact JWS: base64url without padding (a length of 4n + 1 cannot be base64 either); an empty signature is refused later, by what it is signed with. */
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** A verified assertion: `spend` marks its `jti` used (false when it was used before); the caller calls it once, just before the request changes anything. */
type Checked = { ok: true; spend: () => Promise<boolean> } | { ok: false; description: string };

/**
 * Verifies a `private_key_jwt` client assertion (RFC 7523 §3, OpenID Connect Core §9): a JWS
 * signed with one of the client's registered keys (`jwks`, or `jwks_uri` fetched and cached by
 * `jwksUriKeys`), `iss` and `sub` the client id, `aud` this server's issuer or
 * token endpoint, a short `exp`, and a `jti` used once (the store's `add`, across instances).
 * The `jti` is not spent here but by the returned `spend`, once the rest of the request has been
 * checked: a request that fails then keeps nothing, and a client's entries grow only with the
 * tokens it is issued.
 */
export async function verifyClientAssertion(context: OAuthContext, client: OAuthClient, assertion: string): Promise<Checked> {
  const fail = (description: string): Checked => ({ ok: false, description: `the client assertion ${description}` });
  const parts = assertion.split('.');
  if (parts.length !== 3 || assertion.length > 8192) return fail('is not a compact JWS');
  // Each part base64url (RFC 7515 §7.1): anything else, in the signature too, is refused here rather than failing to decode later.
  if (!parts.every((part) => BASE64URL.test(part) && part.length % 4 !== 1)) return fail('is not a compact JWS (a part is not base64url)');
  let header: Record<string, unknown>;
  let claims: Record<string, unknown>;
  try {
    header = JSON.parse(new TextDecoder().decode(decodeBase64url(parts[0]!))) as Record<string, unknown>;
    claims = JSON.parse(new TextDecoder().decode(decodeBase64url(parts[1]!))) as Record<string, unknown>;
  } catch {
    return fail('is not a compact JWS (its header or claims are not base64url JSON)');
  }
  if (typeof header !== 'object' || header === null || typeof claims !== 'object' || claims === null) return fail('is not a compact JWS');
  const alg = header.alg;
  // Only the asymmetric algorithms: never `none`, never an HMAC keyed with something public.
  if (typeof alg !== 'string' || !Object.hasOwn(ALGORITHMS, alg)) return fail(`is signed with '${String(alg)}'; use one of ${Object.keys(ALGORITHMS).join(', ')}`);
  if (Object.hasOwn(header, 'crit')) return fail('has a crit header this server does not understand');

  const now = context.now() / 1000;
  if (claims.iss !== client.clientId || claims.sub !== client.clientId) return fail('must have iss and sub equal to the client_id');
  const audience = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!audience.some((aud) => aud === context.issuer || aud === context.urls.token)) return fail(`must have aud ${context.issuer} (or the token endpoint ${context.urls.token})`);
  if (typeof claims.exp !== 'number' || claims.exp + SKEW_SECONDS <= now) return fail('has expired (or has no exp)');
  const issuedAt = typeof claims.iat === 'number' ? claims.iat : now;
  if (issuedAt - SKEW_SECONDS > now) return fail('was issued in the future (iat)');
  if (claims.exp - issuedAt > MAX_LIFETIME_SECONDS || claims.exp - now > MAX_LIFETIME_SECONDS) return fail(`lives longer than ${MAX_LIFETIME_SECONDS} s (exp)`);
  if (typeof claims.nbf === 'number' && claims.nbf - SKEW_SECONDS > now) return fail('is not valid yet (nbf)');
  if (typeof claims.jti !== 'string' || claims.jti === '' || claims.jti.length > 256) return fail('needs a jti (a unique id, so it cannot be replayed)');

  const kid = typeof header.kid === 'string' ? header.kid : undefined;
  const keys = client.jwks
    ? { keys: [...client.jwks.keys] }
    : client.jwksUri
      ? await context.jwksUriKeys(client.jwksUri, client.clientId, kid)
      : { error: 'the client registered no jwks or jwks_uri' };
  if ('error' in keys) return fail(`could not be checked: ${keys.error}`);
  const candidates = keys.keys.filter((key) => (kid === undefined || key.kid === kid) && fitsAlgorithm(key, alg) && key.use !== 'enc');
  if (candidates.length === 0) return fail(`names no registered key for ${alg}${kid === undefined ? '' : ` with kid '${kid}'`}`);
  const algorithm = ALGORITHMS[alg]!;
  const signed = new TextEncoder().encode(`${parts[0]}.${parts[1]}`);
  const signature = decodeBase64url(parts[2]!);
  let valid = false;
  for (const jwk of candidates) {
    try {
      const key = await crypto.subtle.importKey('jwk', publicMembers(jwk) as never, algorithm.import as never, false, ['verify']);
      if (await crypto.subtle.verify(algorithm.sign as never, key, signature, signed)) {
        valid = true;
        break;
      }
    } catch {
      // A key that does not import for this algorithm verifies nothing.
    }
  }
  if (!valid) return fail('has a signature that none of the client’s keys verifies');
  // Used once, across every instance sharing the store, for as long as it could still be accepted: the set-if-absent decides between racing requests.
  const spentKey = `assertion:${await sha256(`${client.clientId}\n${claims.jti}`)}`;
  const ttl = Math.max(1, Math.ceil(claims.exp + SKEW_SECONDS - now));
  return { ok: true, spend: () => context.store.add(spentKey, '1', ttl) };
}

/** What a request whose assertion's `jti` was already spent is told. */
export const SPENT_ASSERTION = 'the client assertion was used before (its jti is spent): make a new one per request';

function fitsAlgorithm(jwk: Jwk, alg: string): boolean {
  if (typeof jwk.alg === 'string' && jwk.alg !== alg) return false;
  if (alg === 'ES256') return jwk.kty === 'EC' && jwk.crv === 'P-256';
  if (alg === 'EdDSA') return jwk.kty === 'OKP' && jwk.crv === 'Ed25519';
  return jwk.kty === 'RSA';
}

/** Only the public members Web Crypto needs (an `alg`, `use` or `key_ops` the import would argue with are left out). */
function publicMembers(jwk: Jwk): Jwk {
  const members = jwk.kty === 'EC' ? ['kty', 'crv', 'x', 'y'] : jwk.kty === 'OKP' ? ['kty', 'crv', 'x'] : ['kty', 'n', 'e'];
  return Object.fromEntries(members.filter((m) => Object.hasOwn(jwk, m)).map((m) => [m, jwk[m]]));
}
