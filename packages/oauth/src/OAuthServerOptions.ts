import type { ToolLogger } from '@toolwright/core';
import type { ClientDocumentOptions } from './cimd/clientDocuments';
import type { OAuthStore } from './OAuthStore';
import type { OAuthRateLimitOptions } from './rateLimits';
import type { UpstreamProvider } from './upstream/UpstreamProvider';

/** A sign-in the authorization server asks the app to decide: which client wants what. */
export interface SignInRequest {
  /** Identifies this sign-in: pass it to `oauth.completeSignIn(id, outcome)` when your own login page finishes it. */
  readonly id: string;
  readonly client: { readonly id: string; readonly name?: string; readonly uri?: string; readonly logoUri?: string; readonly kind: 'registered' | 'document' };
  readonly redirectUri: string;
  /** The scopes the client asked for; when it asked for none, the scopes it registered (`scope` metadata) that this server has; else empty. */
  readonly scopes: readonly string[];
  /** The MCP resource the token will be for (RFC 8707). */
  readonly resource: string;
}

/** What the app decided: who signed in and what they may be granted, or a refusal. */
export type SignInOutcome =
  | {
      /** The user's stable id: the token's `sub`. */
      subject: string;
      /** The scopes this user may hold; the grant is what the client asked for within these (all of them when it asked for none and registered no `scope`). Default: every scope in `scopes`. */
      scopes?: readonly string[];
      /** Roles for `@RequireRoles`, in the token's roles claim. */
      roles?: readonly string[];
      /** More claims for the access token (not `iss`, `aud`, `sub`, `exp`, `iat`, `jti`, `scope`, `client_id`, `sid`). */
      claims?: Readonly<Record<string, unknown>>;
    }
  | { deny: true; reason?: string };

/**
 * Signs the user in. The authorization server does not own users: on each authorization
 * request it calls this with the browser's request (read your session cookie from it) and
 * what the client asks. Return the outcome, or a `Response` (your login page) and call
 * `oauth.completeSignIn(signIn.id, outcome)` when the user has signed in.
 */
export type SignInHook = (request: Request, signIn: SignInRequest) => SignInOutcome | Response | Promise<SignInOutcome | Response>;

export interface OAuthServerOptions {
  /** This authorization server's public base URL as clients reach it (e.g. `https://mcp.example.com`); every endpoint and the `iss` of every token derive from it, never from request headers. */
  issuer: string;
  /** The MCP endpoint(s) tokens are for (RFC 8707 `resource`; the token's `aud`), e.g. `https://mcp.example.com/mcp`. The first is the default. */
  resource: string | readonly string[];
  /** Who the user is: see `SignInHook`. Not with `upstream`, which signs users in instead. */
  signIn?: SignInHook;
  /**
   * Sign users in at an upstream identity provider instead (`githubUpstream`, `googleUpstream`,
   * `entraUpstream`, `auth0Upstream`, `oktaUpstream`, `keycloakUpstream`, `oidcUpstream`):
   * register this server there with the callback `{issuer}/callback`. Its tokens are kept
   * encrypted (with `secret`) and never given to MCP clients; revoking a grant here revokes
   * them there where the provider allows.
   */
  upstream?: UpstreamProvider;
  /** Scopes clients may ask for (`scopes_supported`). Default none. */
  scopes?: readonly string[];
  /** Show the consent page (client name, redirect, scopes; Allow/Deny) after sign-in. Default true. */
  consent?: boolean;
  /** Where state lives. Default a `MemoryOAuthStore` (one instance; lost on restart). */
  store?: OAuthStore;
  /** The private JWK tokens are signed with (ES256, RS256, PS256 or EdDSA, with a `kid`). Default: an ES256 key made at start, so tokens die with the process: set one for more than one instance. */
  signingKey?: Record<string, unknown>;
  /** A secret of at least 32 characters for refresh-token rotation; the same on every instance. Default: random at start. */
  secret?: string;
  /** Access token lifetime. Default 300 s. */
  accessTokenTtlSeconds?: number;
  /** A refresh token's lifetime from its issue. Default 30 days. */
  refreshTokenTtlSeconds?: number;
  /** A grant's whole life, refreshes included; then the user signs in again. Default 90 days. */
  grantTtlSeconds?: number;
  /** How long a just-rotated refresh token still works (concurrent refreshes get the same new token). Default 10 s. */
  refreshGraceSeconds?: number;
  /** Open dynamic client registration (RFC 7591) at `/register`. Default true. */
  registration?: boolean;
  /**
   * How long a registered client that has not yet signed anyone in is kept: registrations
   * anyone may send do not hold the store for long. Default 1 day (86 400 s).
   */
  unusedClientTtlSeconds?: number;
  /**
   * How long a registered client is kept after its last completed sign-in (each one starts
   * it again); never shorter than `grantTtlSeconds`, so its grants can refresh. Default 180 days.
   */
  clientTtlSeconds?: number;
  /** Client ID metadata documents; `false` turns them off. Default on, with the runtime's fetcher (`nodeDocumentFetcher()` on node, `fetchDocumentFetcher()` elsewhere). */
  clientDocuments?: ClientDocumentOptions | false;
  /** The access token claim that carries roles (`jwtVerifier`'s `rolesClaim`). Default `roles`. */
  rolesClaim?: string;
  /** Replaces the consent page's HTML (values are escaped for you in the default). */
  renderConsent?: (view: ConsentView) => string;
  /**
   * Rate limits per client address at `/register`, `/token` and `/revoke`, `/authorize` and its
   * consent form: 429 with `Retry-After` past them. On by default (in memory); `false` turns
   * them off. See `OAuthRateLimitOptions` for the rates, a shared store and the client address.
   */
  rateLimit?: OAuthRateLimitOptions | false;
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  now?: () => number;
  /**
   * Where the server logs what failed (an endpoint's error, a refused upstream refresh) and its
   * warnings: give it the app's logger (`createApp({ logger })`) to keep one log. Default: the
   * console (`console.warn` and `console.error`).
   */
  logger?: ToolLogger;
}

/** What the consent page shows, and the form fields it must post back to `action`. */
export interface ConsentView {
  readonly clientName: string;
  readonly clientId: string;
  /** The client's site, as the browser follows it (parsed: punycode host, no backslash tricks). */
  readonly clientUri?: string;
  /** Where the browser is sent back, as it follows it (parsed, as `clientUri`), before the response parameters. */
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  readonly action: string;
  /** Hidden fields to post with `decision=allow` or `decision=deny`. */
  readonly fields: Readonly<Record<string, string>>;
}
