import { ToolwrightError } from '@toolwright/core';
import type { OAuthStore } from '../OAuthStore';
import { storeFullRetryAfter } from '../OAuthStoreFullError';
import type { SignInOutcome } from '../OAuthServerOptions';
import { errorPage, redirect } from '../oauthResponses';
import { allowOf } from '../optionsAnswer';
import { randomToken, sha256, type CryptoKey } from '../webCrypto';
import { seal, unseal } from './sealing';
import type { UpstreamProvider, UpstreamTokens } from './UpstreamProvider';
import { upstreamErrorCode } from './upstreamErrorCode';
import { jsonObject } from './jsonObject';
import { upstreamEndpoints, type UpstreamEndpoints } from './upstreamEndpoints';

/**
 * The methods the callback serves: the provider sends the browser back with a GET (no HEAD: that
 * GET completes the sign-in, which a HEAD must not).
 */
export const CALLBACK_METHODS: readonly string[] = ['GET'];

/**
 * What is kept between the redirect upstream and the callback, under `upstream-state:<SHA-256 of
 * the state>`: sealed with the server's key (AES-GCM, bound to that store key), since the PKCE
 * verifier is what turns the upstream code into tokens, and the store may be shared (Redis).
 */
interface PendingUpstream {
  signInId: string;
  verifier: string;
  nonce: string;
}

export interface Upstream {
  readonly provider: UpstreamProvider;
  /** Sends the browser to the upstream provider for pending sign-in `signInId`. */
  start(signInId: string): Promise<Response>;
  /** The upstream provider's answer at `{issuer}/callback`: the user's outcome and the upstream tokens (sealed for `signin:<id>`). */
  callback(request: Request): Promise<{ signInId: string; outcome: SignInOutcome; sealed?: string } | Response>;
  /** Revokes a grant's upstream tokens where the provider allows. */
  revoke(sealed: string, label: string): Promise<void>;
  unseal(sealed: string, label: string): Promise<UpstreamTokens | undefined>;
  seal(tokens: UpstreamTokens, label: string): Promise<string>;
  /** New tokens for `tokens.refresh_token` from the provider's token endpoint; `refused` when the provider refused the refresh token (the user must sign in again). */
  refresh(tokens: UpstreamTokens): Promise<UpstreamTokens | 'refused'>;
}

/**
 * The proxy to an upstream provider: this server is its confidential client. The browser goes
 * upstream with this server's own PKCE, state and nonce; the callback exchanges the code
 * (server to server), reads who the user is from the ID token (issuer, audience, nonce and
 * expiry checked; received straight from the token endpoint over TLS, OIDC Core §3.1.3.7) and
 * userinfo, and maps it. The upstream tokens are sealed (AES-GCM) and never leave this server.
 */
export function createUpstream(provider: UpstreamProvider, options: { callbackUrl: string; store: OAuthStore; sealKey: CryptoKey; now: () => number; fetch?: typeof fetch }): Upstream {
  const http = options.fetch ?? fetch;
  let endpoints: Promise<UpstreamEndpoints> | undefined;
  const resolve = (): Promise<UpstreamEndpoints> =>
    (endpoints ??= upstreamEndpoints(provider, http).catch((error: unknown) => {
      endpoints = undefined; // discovery is tried again on the next sign-in
      throw error;
    }));

  const clientAuth = (body: URLSearchParams): Record<string, string> => {
    if (provider.clientAuthMethod === 'client_secret_basic') {
      return { authorization: `Basic ${btoa(`${encodeURIComponent(provider.clientId)}:${encodeURIComponent(provider.clientSecret)}`)}` };
    }
    body.set('client_id', provider.clientId);
    body.set('client_secret', provider.clientSecret);
    return {};
  };

  const revoke = async (tokens: UpstreamTokens): Promise<void> => {
    if (provider.revoke) return provider.revoke(tokens, provider);
    const { revocation } = await resolve();
    if (!revocation) return; // the provider has no revocation endpoint: its tokens expire on their own
    for (const [token, hint] of [
      [tokens.refresh_token, 'refresh_token'],
      [tokens.access_token, 'access_token'],
    ] as const) {
      if (!token) continue;
      const body = new URLSearchParams({ token, token_type_hint: hint });
      const headers = clientAuth(body);
      await http(revocation, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body });
    }
  };

  return {
    provider,
    async start(signInId) {
      const { authorization } = await resolve();
      const state = randomToken(24);
      const verifier = randomToken(32);
      const nonce = randomToken(16);
      const pending: PendingUpstream = { signInId, verifier, nonce };
      const key = `upstream-state:${await sha256(state)}`;
      await options.store.set(key, await seal(options.sealKey, pending, key), 600);
      const challenge = await sha256(verifier);
      const url = new URL(authorization);
      const params: Record<string, string> = {
        ...provider.authorizeParams,
        response_type: 'code',
        client_id: provider.clientId,
        redirect_uri: options.callbackUrl,
        scope: provider.scopes.join(' '),
        state,
        code_challenge: challenge,
        code_challenge_method: 'S256',
        ...(provider.scopes.includes('openid') && { nonce }),
      };
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return redirect(url.href);
    },

    async callback(request) {
      // The provider sends the browser back with a GET and the answer in the query (no response_mode is asked: createOAuthServer refuses authorizeParams that set one).
      // Any other method, a HEAD included, is refused before anything is read: it must not spend the sign-in.
      if (!CALLBACK_METHODS.includes(request.method))
        return errorPage('Method not allowed', 'The identity provider sends the browser back here with a GET.', 405, { Allow: allowOf(CALLBACK_METHODS) });
      const params = new URL(request.url).searchParams;
      const state = params.get('state');
      if (!state) return errorPage('Invalid sign-in', 'The identity provider answered without state.');
      const key = `upstream-state:${await sha256(state)}`;
      const raw = await options.store.get(key);
      const answered = () => errorPage('Sign-in expired', 'This sign-in is unknown, expired or already answered. Start again from your application.');
      if (!raw) return answered();
      // Each state is answered once, across instances: the mark's set-if-absent decides between callbacks racing with the same state.
      if (!(await markAnswered(options.store, key))) return answered();
      const pending = await unseal<PendingUpstream>(options.sealKey, raw, key);
      if (!pending)
        return errorPage(
          'Sign-in failed',
          'This sign-in could not be read here: another server (with another secret, or an older version) started it, or its record was changed. Start again from your application; if this repeats, give every instance the same secret.',
        );
      const { token: tokenEndpoint, userinfo, issuer, issInResponses } = await resolve();
      // Mix-up defence (RFC 9207 §2.4): a present iss must be the issuer; a provider that says it sends iss must send it.
      const iss = params.get('iss');
      if (issuer && iss !== null && iss !== issuer) return errorPage('Invalid sign-in', 'The answer came from another identity provider (RFC 9207 iss).');
      if (issInResponses && iss === null) return errorPage('Invalid sign-in', 'The identity provider’s answer has no iss, which its metadata promises (RFC 9207): it may come from another provider.');
      // Only a known error code goes on to the client, never the provider's words: anyone can craft this query.
      if (params.has('error')) {
        const code = upstreamErrorCode(params.get('error'));
        return { signInId: pending.signInId, outcome: { deny: true, reason: code ? `the identity provider answered ${code}` : 'the identity provider answered with an error' } };
      }
      const code = params.get('code');
      if (!code) return errorPage('Invalid sign-in', 'The identity provider answered without a code.');

      const body = new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: options.callbackUrl, code_verifier: pending.verifier });
      const headers = clientAuth(body);
      const response = await http(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers }, body });
      const tokens = await jsonObject(response);
      const accessToken = tokens.access_token;
      if (!response.ok || typeof accessToken !== 'string')
        return {
          signInId: pending.signInId,
          outcome: { deny: true, reason: answeredNoToken(response, tokens) ?? `the identity provider refused the code (${upstreamErrorCode(tokens.error) ?? `HTTP ${response.status}`})` },
        };
      let claims: Record<string, unknown> = {};
      if (typeof tokens.id_token === 'string') {
        const idClaims = decodeJwt(tokens.id_token);
        const audience = Array.isArray(idClaims?.aud) ? idClaims.aud : [idClaims?.aud];
        const valid =
          idClaims &&
          (issuer === undefined || idClaims.iss === issuer) &&
          audience.includes(provider.clientId) &&
          idClaims.nonce === pending.nonce &&
          typeof idClaims.exp === 'number' &&
          idClaims.exp * 1000 > options.now() - 30_000;
        if (!valid) return errorPage('Invalid sign-in', 'The identity provider’s ID token failed its checks (issuer, audience, nonce or expiry).');
        claims = { ...idClaims };
      }
      if (userinfo) {
        const info = await http(userinfo, { headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json', ...provider.userinfoHeaders } });
        if (info.ok) {
          const fetched = await jsonObject(info);
          // userinfo must be about the same user as the ID token (OIDC Core §5.3.2).
          if (claims.sub !== undefined && fetched.sub !== undefined && fetched.sub !== claims.sub) return errorPage('Invalid sign-in', 'The identity provider’s userinfo names another user.');
          claims = { ...fetched, ...claims };
        }
      }
      const outcome = provider.map ? await provider.map(claims) : defaultOutcome(provider, claims);
      const kept = keptTokens(tokens, accessToken, undefined, options.now());
      return { signInId: pending.signInId, outcome, sealed: await seal(options.sealKey, kept, `signin:${pending.signInId}`) };
    },

    async revoke(sealed, label) {
      const tokens = await unseal<UpstreamTokens>(options.sealKey, sealed, label);
      if (tokens) await revoke(tokens);
    },
    async refresh(tokens) {
      if (!tokens.refresh_token) return 'refused';
      const { token: tokenEndpoint } = await resolve();
      const body = new URLSearchParams({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token });
      const headers = clientAuth(body);
      const response = await http(tokenEndpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json', ...headers }, body });
      const fresh = await jsonObject(response);
      if (response.ok && typeof fresh.access_token === 'string') return keptTokens(fresh, fresh.access_token, tokens.refresh_token, options.now());
      if (fresh.error === 'invalid_grant' || fresh.error === 'unauthorized_client') return 'refused';
      const failure = answeredNoToken(response, fresh) ?? `the identity provider answered ${upstreamErrorCode(fresh.error) ?? `HTTP ${response.status}`}`;
      throw new ToolwrightError(`Toolwright oauth: refreshing the upstream tokens at ${provider.name} failed: ${failure}; try again later.`);
    },
    unseal: (sealed, label) => unseal<UpstreamTokens>(options.sealKey, sealed, label),
    seal: (tokens, label) => seal(options.sealKey, tokens, label),
  };
}

/**
 * What is kept of a token response (a JSON object whose `access_token` is `accessToken`): the
 * tokens, their scope, and when the access token expires (`expires_at`, seconds since the
 * epoch); a field of another type than its own is left out. A provider that rotates nothing
 * keeps the refresh token it had.
 */
function keptTokens(tokens: Record<string, unknown>, accessToken: string, previousRefresh: string | undefined, now: number): UpstreamTokens {
  const refresh = typeof tokens.refresh_token === 'string' ? tokens.refresh_token : previousRefresh;
  const expiresIn = typeof tokens.expires_in === 'number' && tokens.expires_in > 0 ? tokens.expires_in : undefined;
  const scope = typeof tokens.scope === 'string' ? tokens.scope : undefined;
  return {
    access_token: accessToken,
    ...(refresh && { refresh_token: refresh }),
    ...(expiresIn !== undefined && { expires_in: expiresIn, expires_at: Math.floor(now / 1000) + expiresIn }),
    ...(scope && { scope }),
  };
}

/**
 * A token endpoint's 2xx answer that holds no access token and no error code OAuth defines (a
 * body that is no JSON object included), said as what it is; undefined for any other answer,
 * which is a refusal told by its error code or HTTP status.
 */
function answeredNoToken(response: Response, body: Record<string, unknown>): string | undefined {
  return response.ok && upstreamErrorCode(body.error) === undefined ? `the identity provider answered no access token (HTTP ${response.status})` : undefined;
}

function defaultOutcome(provider: UpstreamProvider, claims: Record<string, unknown>): SignInOutcome {
  const subject = claims[provider.subjectClaim ?? 'sub'];
  if ((typeof subject !== 'string' && typeof subject !== 'number') || subject === '') return { deny: true, reason: `the identity provider named no ${provider.subjectClaim ?? 'sub'}` };
  const groups = claims[provider.groupsClaim ?? 'groups'];
  const roles = Array.isArray(groups) ? groups.map(String) : [];
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return { subject: `${provider.name}:${String(subject)}`, roles, ...(email && { claims: { email } }) };
}

function decodeJwt(token: string): Record<string, unknown> | undefined {
  try {
    const payload = token.split('.')[1]!;
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(payload.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (payload.length % 4)) % 4)), (c) => c.charCodeAt(0)))) as Record<
      string,
      unknown
    >;
  } catch {
    return undefined;
  }
}

/** How long the mark that a state was answered is kept: only callbacks that read the state before it was deleted race for the mark, and they come within moments. */
const ANSWERED_MARK_SECONDS = 60;

/**
 * Marks the upstream sign-in under `key` answered, then deletes its state; false when another
 * callback marked it first. The mark is added while the state still holds its place in the
 * sign-ins' share, so no one can take that place in between and leave the user's sign-in
 * without room; only when the share has no room for both does the state go first.
 */
async function markAnswered(store: OAuthStore, key: string): Promise<boolean> {
  let marked: boolean;
  try {
    marked = await store.add(`${key}:used`, '1', ANSWERED_MARK_SECONDS);
  } catch (error) {
    if (storeFullRetryAfter(error) === undefined) throw error;
    await store.delete(key);
    return store.add(`${key}:used`, '1', ANSWERED_MARK_SECONDS);
  }
  if (marked) await store.delete(key);
  return marked;
}
