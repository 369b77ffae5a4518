import type { SignInOutcome } from '../OAuthServerOptions';

/** The tokens an upstream provider issued (kept encrypted; never handed to MCP clients). */
export interface UpstreamTokens {
  readonly access_token: string;
  readonly token_type?: string;
  readonly refresh_token?: string;
  readonly id_token?: string;
  readonly expires_in?: number;
  /** When the access token expires, in seconds since the epoch (from `expires_in` when it was issued); absent when the provider did not say. */
  readonly expires_at?: number;
  readonly scope?: string;
}

/**
 * An identity provider users sign in with, when this server proxies one (GitHub, Google,
 * Microsoft Entra, Auth0, Okta, Keycloak, any OpenID Connect provider): this server is a
 * confidential client of it, registered with the callback `{issuer}/callback`.
 */
export interface UpstreamProvider {
  /** A name for logs and errors, e.g. `github`. */
  readonly name: string;
  /** An OpenID Connect issuer: its endpoints are read from `{issuer}/.well-known/openid-configuration` (and the issuer there must be this one). */
  readonly issuer?: string;
  /** Or the endpoints themselves (OAuth-only providers such as GitHub). */
  readonly authorizationEndpoint?: string;
  readonly tokenEndpoint?: string;
  readonly userinfoEndpoint?: string;
  readonly revocationEndpoint?: string;
  /**
   * Hosts (`keycloak`) or host:port (`keycloak:8080`) this server may reach the provider at over
   * plain http, besides this machine (localhost, 127.0.0.1, [::1]): for a provider on a private
   * network only (e.g. the same docker compose network), since anyone on the way could read or
   * change the client secret, codes and tokens. No URLs. Default none: https only.
   */
  readonly plainHttpHosts?: readonly string[];
  readonly clientId: string;
  readonly clientSecret: string;
  /** How this server authenticates at the token and revocation endpoints. Default `client_secret_post`. */
  readonly clientAuthMethod?: 'client_secret_post' | 'client_secret_basic';
  /** Scopes asked upstream, e.g. `['openid', 'email', 'profile']`. */
  readonly scopes: readonly string[];
  /** More authorization request parameters (e.g. `{ prompt: 'select_account' }`). Not `response_mode`: the callback takes the answer only as a GET with it in the query. */
  readonly authorizeParams?: Readonly<Record<string, string>>;
  /** The claim that is the user's stable id. Default `sub`. */
  readonly subjectClaim?: string;
  /** The claim with the user's groups, which become roles by default. Default `groups`. */
  readonly groupsClaim?: string;
  /**
   * Who the user is here, from the upstream claims (ID token and userinfo): the subject,
   * the scopes they may hold and their roles, or `{ deny: true }`. Default: the subject claim,
   * every scope, the groups as roles.
   */
  readonly map?: (claims: Readonly<Record<string, unknown>>) => SignInOutcome | Promise<SignInOutcome>;
  /** Revokes upstream tokens when a provider has no RFC 7009 endpoint but another way (GitHub). */
  readonly revoke?: (tokens: UpstreamTokens, provider: UpstreamProvider) => Promise<void>;
  /** Extra headers for the userinfo request (GitHub wants a User-Agent and its Accept). */
  readonly userinfoHeaders?: Readonly<Record<string, string>>;
}
