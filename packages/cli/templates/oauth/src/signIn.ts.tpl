import { oidcUpstream, type OAuthServerOptions } from '@toolwright/oauth';

/**
 * Who signs in. With OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET set, users sign in at that
 * OpenID Connect provider (register `{issuer}/callback` there; GitHub, Google, Entra ID, Auth0,
 * Okta and Keycloak have presets, see https://github.com/toolwright/toolwright/blob/main/docs/guide/oauth.md).
 * Without them, a development sign-in: everyone is DEV_USER (default `developer`), after the
 * consent page. Never deploy that: replace it with your own login, or set the provider.
 */
export function signInFromEnv(env: NodeJS.ProcessEnv): Pick<OAuthServerOptions, 'signIn' | 'upstream'> {
  const { OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET } = env;
  if (OIDC_ISSUER && OIDC_CLIENT_ID && OIDC_CLIENT_SECRET) {
    return { upstream: oidcUpstream({ issuer: OIDC_ISSUER, clientId: OIDC_CLIENT_ID, clientSecret: OIDC_CLIENT_SECRET }) };
  }
  const user = env.DEV_USER ?? 'developer';
  return { signIn: () => ({ subject: user, scopes: ['notes:read', 'notes:write'] }) };
}
