import type { UpstreamProvider, UpstreamTokens } from './UpstreamProvider';

/** What every preset takes: the credentials of this server's client at the provider, and optional overrides. */
export type UpstreamCredentials = { clientId: string; clientSecret: string; scopes?: readonly string[] } & Partial<
  Pick<UpstreamProvider, 'map' | 'authorizeParams' | 'subjectClaim' | 'groupsClaim' | 'plainHttpHosts'>
>;

const OIDC_SCOPES = ['openid', 'email', 'profile'];

/** Any OpenID Connect provider, by discovery from its issuer. */
export function oidcUpstream(options: UpstreamCredentials & { issuer: string; name?: string }): UpstreamProvider {
  return { name: options.name ?? 'oidc', scopes: OIDC_SCOPES, ...options };
}

/** Google: register an OAuth client (Web application) in Google Cloud; no groups claim. */
export function googleUpstream(options: UpstreamCredentials): UpstreamProvider {
  return { name: 'google', issuer: 'https://accounts.google.com', scopes: OIDC_SCOPES, authorizeParams: { access_type: 'offline', prompt: 'consent' }, ...options };
}

/** Microsoft Entra ID: an app registration in `tenant` (a tenant id, or `organizations`); group ids arrive in `groups` when the app is set to emit them. Entra has no revocation endpoint. */
export function entraUpstream(options: UpstreamCredentials & { tenant: string }): UpstreamProvider {
  const { tenant, ...rest } = options;
  return { name: 'entra', issuer: `https://login.microsoftonline.com/${tenant}/v2.0`, scopes: [...OIDC_SCOPES, 'offline_access'], subjectClaim: 'oid', ...rest };
}

/** Auth0: an application (Regular Web Application) in `domain` (e.g. `example.eu.auth0.com`). */
export function auth0Upstream(options: UpstreamCredentials & { domain: string }): UpstreamProvider {
  const { domain, ...rest } = options;
  return { name: 'auth0', issuer: `https://${domain}/`, scopes: [...OIDC_SCOPES, 'offline_access'], ...rest };
}

/** Okta: an OIDC Web app; `authorizationServer` defaults to `default` (the org server when `null`). */
export function oktaUpstream(options: UpstreamCredentials & { domain: string; authorizationServer?: string | null }): UpstreamProvider {
  const { domain, authorizationServer = 'default', ...rest } = options;
  return {
    name: 'okta',
    issuer: authorizationServer === null ? `https://${domain}` : `https://${domain}/oauth2/${authorizationServer}`,
    scopes: [...OIDC_SCOPES, 'groups', 'offline_access'],
    ...rest,
  };
}

/** Keycloak: a confidential client in `realm` at `baseUrl` (e.g. `https://sso.example.com`). */
export function keycloakUpstream(options: UpstreamCredentials & { baseUrl: string; realm: string }): UpstreamProvider {
  const { baseUrl, realm, ...rest } = options;
  return { name: 'keycloak', issuer: `${baseUrl.replace(/\/$/, '')}/realms/${encodeURIComponent(realm)}`, scopes: OIDC_SCOPES, ...rest };
}

/** GitHub (OAuth app or GitHub App user tokens; not OpenID Connect): the user's numeric id is the subject; revocation goes through GitHub's application API. */
export function githubUpstream(options: UpstreamCredentials): UpstreamProvider {
  return {
    name: 'github',
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    userinfoEndpoint: 'https://api.github.com/user',
    userinfoHeaders: { accept: 'application/vnd.github+json', 'user-agent': 'toolwright-oauth' },
    scopes: ['read:user', 'user:email'],
    subjectClaim: 'id',
    revoke: revokeGitHubToken,
    ...options,
  };
}

async function revokeGitHubToken(tokens: UpstreamTokens, provider: UpstreamProvider): Promise<void> {
  const basic = btoa(`${provider.clientId}:${provider.clientSecret}`);
  await fetch(`https://api.github.com/applications/${encodeURIComponent(provider.clientId)}/token`, {
    method: 'DELETE',
    headers: { authorization: `Basic ${basic}`, accept: 'application/vnd.github+json', 'content-type': 'application/json', 'user-agent': 'toolwright-oauth' },
    body: JSON.stringify({ access_token: tokens.access_token }),
  });
}
