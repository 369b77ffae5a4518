import { ConfigError, ToolwrightError } from '@toolwright/core';
import type { AuthInfo } from '@toolwright/core';
import { DEFAULT_CLOCK_TOLERANCE_SECONDS } from './isExpired';
import type { TokenVerifier } from './TokenVerifier';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });
/** A JSON Web Key Set (RFC 7517): `{ keys: [...] }`. */
export type JwkSet = { keys: Record<string, unknown>[] };

export interface JwtVerifierOptions {
  /** The token issuer (`iss`), e.g. `https://auth.example.com/`. */
  issuer: string;
  /** The audience the token must name: this server's resource URL (`auth.resource`). */
  audience: string | string[];
  /** Where the issuer publishes its signing keys (fetched and cached by `jose`). */
  jwksUrl?: string;
  /** Or the keys themselves (tests, static deployments). */
  jwks?: JwkSet;
  /** Accepted signing algorithms. Default: RS256, PS256, ES256, EdDSA. */
  algorithms?: string[];
  /**
   * Tolerated clock skew in seconds, for `exp` and `nbf` here and for `expiresAt` at the
   * endpoint (the verifier carries it). Default 30.
   */
  clockToleranceSeconds?: number;
  /**
   * The `typ` header a token must have, e.g. `'at+jwt'` to accept only RFC 9068 access tokens
   * (`application/at+jwt` matches too), so an ID token or another JWT the issuer signed with
   * the same keys is refused. Default: any `typ` (many issuers send `JWT` for access tokens).
   */
  typ?: string;
  /** Claim holding roles (array or space-separated string). Default `roles`. */
  rolesClaim?: string;
}

/**
 * A ready `TokenVerifier` for JWT access tokens: checks the signature against the
 * issuer's JWKS, the issuer, the audience (this server, RFC 8707), expiry (required) and
 * not-before with `clockToleranceSeconds`, the `typ` header when `typ` is set, and that `sub`
 * is a non-empty string (sessions, round states and per-caller limits are bound to it); then
 * maps `scope`/`scp` to scopes, `client_id`/`azp`/`sub` (the first that is a string) to the
 * client, and `sub` and roles into `extra`.
 */
export function jwtVerifier(options: JwtVerifierOptions): TokenVerifier {
  if (!options.jwksUrl && !options.jwks) throw new ConfigError("Toolwright: jwtVerifier needs the issuer's keys: pass jwksUrl (e.g. https://auth.example.com/.well-known/jwks.json) or jwks.");
  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!(Number.isFinite(clockToleranceSeconds) && clockToleranceSeconds >= 0)) {
    throw new ConfigError(`Toolwright: jwtVerifier's clockToleranceSeconds must be a number of seconds, 0 or more, got ${String(options.clockToleranceSeconds)}.`);
  }
  let prepared: Promise<{ jose: Jose; keys: Parameters<Jose['jwtVerify']>[1] }> | undefined;
  const prepare = () =>
    (prepared ??= loadJose().then((jose) => ({
      jose,
      keys: options.jwks ? jose.createLocalJWKSet(options.jwks as never) : jose.createRemoteJWKSet(new URL(options.jwksUrl!)),
    })));
  const rolesClaim = options.rolesClaim ?? 'roles';

  const verify = async (token: string): Promise<AuthInfo> => {
    const { jose, keys } = await prepare();
    const { payload } = await jose.jwtVerify(token, keys as never, {
      issuer: options.issuer,
      audience: options.audience,
      algorithms: options.algorithms ?? ['RS256', 'PS256', 'ES256', 'EdDSA'],
      clockTolerance: clockToleranceSeconds,
      requiredClaims: ['exp', 'sub'],
      ...(options.typ !== undefined && { typ: options.typ }),
    });
    if (typeof payload.sub !== 'string' || payload.sub === '') throw new ToolwrightError(`the "sub" claim must be a non-empty string, got ${typeof payload.sub}`);
    const scope = payload.scope ?? payload.scp;
    const scopes = Array.isArray(scope) ? scope.map(String) : typeof scope === 'string' ? scope.split(' ').filter(Boolean) : [];
    const rawRoles = payload[rolesClaim];
    const roles = Array.isArray(rawRoles) ? rawRoles.map(String) : typeof rawRoles === 'string' ? rawRoles.split(' ').filter(Boolean) : [];
    const clientId = [payload.client_id, payload.azp, payload.sub].find((v): v is string => typeof v === 'string' && v !== '')!;
    const info: AuthInfo = { token, clientId, scopes, expiresAt: payload.exp, extra: { sub: payload.sub, roles, claims: payload } };
    return info;
  };
  return Object.assign(verify, { clockToleranceSeconds });
}

/**
 * jose is an ES module. Node 20.19+ loads it with `require`; the bare `import()` is the
 * fallback for older runtimes. Loaded on first use, so apps that never verify JWTs never load it.
 */
async function loadJose(): Promise<Jose> {
  try {
    return require('jose') as Jose;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM') throw error;
    return (await (require('../ground/importModule') as typeof import('../ground/importModule')).importModule('jose')) as Jose;
  }
}
