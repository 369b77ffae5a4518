import type { OAuthClient } from './OAuthClient';
import { inferApplicationType, redirectUriProblem, type ApplicationType } from './redirectUris';
import { uriSyntaxProblem } from './uriSyntaxProblem';

/** The grant types this server has: what clients may register and what the token endpoint answers. */
export const GRANT_TYPES: ReadonlySet<string> = new Set(['authorization_code', 'refresh_token']);
const AUTH_METHODS = new Set(['none', 'client_secret_basic', 'client_secret_post', 'private_key_jwt']);
/** A `scope` value: scope tokens (RFC 6749 §3.3) separated by single spaces. */
const SCOPE_LIST = /^[\x21\x23-\x5b\x5d-\x7e]+(?: [\x21\x23-\x5b\x5d-\x7e]+)*$/;
const PRIVATE_JWK_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type ClientMetadataResult =
  | { ok: true; client: Omit<OAuthClient, 'clientId' | 'source' | 'clientSecretHash'>; echo: Record<string, unknown> }
  | { ok: false; error: 'invalid_redirect_uri' | 'invalid_client_metadata'; description: string };

/**
 * Checks client metadata (RFC 7591 §2, the fields this server acts on) from a registration
 * request or a client ID metadata document; what it returns is what the client is known by.
 * `documentOnly`: a metadata document's client cannot hold a secret, so only `none` is allowed.
 */
export function checkClientMetadata(raw: unknown, options: { documentOnly?: boolean } = {}): ClientMetadataResult {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return bad('the client metadata must be a JSON object');
  const meta = raw as Record<string, unknown>;
  const field = (name: string): unknown => (Object.hasOwn(meta, name) ? meta[name] : undefined);

  const redirectUris = field('redirect_uris');
  if (!Array.isArray(redirectUris) || redirectUris.length === 0 || redirectUris.length > 20) {
    return { ok: false, error: 'invalid_redirect_uri', description: 'redirect_uris must be an array of 1 to 20 redirect URIs' };
  }
  const declaredType = field('application_type');
  if (declaredType !== undefined && declaredType !== 'web' && declaredType !== 'native') return bad('application_type must be "web" or "native"');
  const applicationType: ApplicationType = (declaredType as ApplicationType | undefined) ?? inferApplicationType(redirectUris.filter((u): u is string => typeof u === 'string'));
  for (const [index, uri] of redirectUris.entries()) {
    const problem = redirectUriProblem(uri, applicationType);
    if (problem) return { ok: false, error: 'invalid_redirect_uri', description: `redirect_uris[${index}]${typeof uri === 'string' ? ` '${uri}'` : ''} ${problem}` };
  }

  const grantTypes = field('grant_types') ?? ['authorization_code'];
  if (!Array.isArray(grantTypes) || grantTypes.length === 0 || !grantTypes.every((g) => typeof g === 'string' && GRANT_TYPES.has(g))) {
    return bad('grant_types may hold only "authorization_code" and "refresh_token"');
  }
  if (!grantTypes.includes('authorization_code')) return bad('grant_types must include "authorization_code"');
  const responseTypes = field('response_types') ?? ['code'];
  if (!Array.isArray(responseTypes) || !responseTypes.every((r) => r === 'code')) return bad('response_types may hold only "code"');

  const method = field('token_endpoint_auth_method') ?? (options.documentOnly ? 'none' : 'client_secret_basic');
  if (typeof method !== 'string' || !AUTH_METHODS.has(method)) return bad('token_endpoint_auth_method must be "none", "client_secret_basic", "client_secret_post" or "private_key_jwt"');
  if (options.documentOnly && method !== 'none' && method !== 'private_key_jwt') {
    return bad('a client ID metadata document must use token_endpoint_auth_method "none" or "private_key_jwt" (a document cannot hold a secret)');
  }
  const keys = clientKeys(field('jwks'), field('jwks_uri'), method === 'private_key_jwt');
  if (keys instanceof Error) return bad(keys.message);
  if (options.documentOnly && (field('client_secret') !== undefined || field('client_secret_expires_at') !== undefined)) return bad('a client ID metadata document must not hold a client secret');

  const text = (name: string, max: number): string | undefined | Error => {
    const value = field(name);
    if (value === undefined) return undefined;
    if (typeof value !== 'string' || value.length > max) return new Error(`${name} must be a string of at most ${max} characters`);
    return value;
  };
  const url = (name: string): string | undefined | Error => {
    const value = text(name, 2000);
    if (value === undefined || value instanceof Error) return value;
    const problem = httpsUrlProblem(value);
    return problem ? new Error(`${name} ${problem}`) : value;
  };
  const clientName = text('client_name', 200);
  const clientUri = url('client_uri');
  const logoUri = url('logo_uri');
  // An empty scope declares nothing (as if absent): read as "no scope at all" it would lock the client out.
  const scope = field('scope') === '' ? undefined : text('scope', 1000);
  for (const value of [clientName, clientUri, logoUri, scope]) if (value instanceof Error) return bad(value.message);
  if (typeof scope === 'string' && !SCOPE_LIST.test(scope)) {
    return bad('scope must be scope tokens separated by single spaces, each of printable ASCII with no quote or backslash (RFC 6749 section 3.3)');
  }

  const client = {
    redirectUris: redirectUris as string[],
    applicationType,
    grantTypes: grantTypes as string[],
    tokenEndpointAuthMethod: method as OAuthClient['tokenEndpointAuthMethod'],
    ...(typeof clientName === 'string' && { clientName }),
    ...(typeof clientUri === 'string' && { clientUri }),
    ...(typeof logoUri === 'string' && { logoUri }),
    ...(typeof scope === 'string' && { scope }),
    ...keys,
  };
  const echo: Record<string, unknown> = {
    redirect_uris: client.redirectUris,
    application_type: applicationType,
    grant_types: client.grantTypes,
    response_types: ['code'],
    token_endpoint_auth_method: method,
    ...(client.clientName !== undefined && { client_name: client.clientName }),
    ...(client.clientUri !== undefined && { client_uri: client.clientUri }),
    ...(client.logoUri !== undefined && { logo_uri: client.logoUri }),
    ...(client.scope !== undefined && { scope: client.scope }),
    ...(keys.jwks && { jwks: keys.jwks }),
    ...(keys.jwksUri !== undefined && { jwks_uri: keys.jwksUri }),
  };
  return { ok: true, client, echo };
}

/** A `private_key_jwt` client's public keys: exactly one of `jwks` (at most 10 public keys) or `jwks_uri` (https). Other clients register none. */
function clientKeys(jwks: unknown, jwksUri: unknown, required: boolean): { jwks?: { keys: Record<string, unknown>[] }; jwksUri?: string } | Error {
  if (!required) return jwks === undefined && jwksUri === undefined ? {} : new Error('jwks and jwks_uri are only for token_endpoint_auth_method "private_key_jwt"');
  if ((jwks === undefined) === (jwksUri === undefined)) return new Error('a private_key_jwt client must register its public keys: exactly one of jwks or jwks_uri');
  if (jwksUri !== undefined) {
    if (typeof jwksUri !== 'string' || jwksUri.length > 2000) return new Error('jwks_uri must be an https URL of at most 2000 characters');
    const problem = httpsUrlProblem(jwksUri);
    return problem ? new Error(`jwks_uri ${problem}`) : { jwksUri };
  }
  const keys = (jwks as { keys?: unknown } | null)?.keys;
  if (typeof jwks !== 'object' || !Array.isArray(keys) || keys.length === 0 || keys.length > 10) return new Error('jwks must be a JWK set: { "keys": [1 to 10 public keys] }');
  for (const key of keys) {
    if (typeof key !== 'object' || key === null || Array.isArray(key) || typeof (key as { kty?: unknown }).kty !== 'string') return new Error('each key in jwks must be a JWK object with a kty');
    if (PRIVATE_JWK_MEMBERS.some((member) => Object.hasOwn(key, member))) return new Error('jwks must hold public keys only (a key has private members): never send a private key');
  }
  if (JSON.stringify(jwks).length > 10_000) return new Error('jwks is larger than 10000 characters');
  return { jwks: { keys: keys as Record<string, unknown>[] } };
}

/** Why `value` is not an https URL written as RFC 3986 writes it (as a redirect URI must be: see uriSyntaxProblem), or undefined. */
function httpsUrlProblem(value: string): string | undefined {
  if (!/^https:\/\/[^/?#]/i.test(value)) return 'must be an https URL (https://host/...)';
  const syntax = uriSyntaxProblem(value);
  if (syntax) return syntax;
  return URL.canParse(value) ? undefined : 'is not a URL a browser can follow';
}

function bad(description: string): ClientMetadataResult {
  return { ok: false, error: 'invalid_client_metadata', description };
}
