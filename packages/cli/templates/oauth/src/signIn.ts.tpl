import { oidcUpstream, type OAuthServerOptions } from '@toolwright/oauth';

const OIDC = ['OIDC_ISSUER', 'OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET'] as const;
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Who signs in. With OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET set, users sign in at that
 * OpenID Connect provider (register `{issuer}/callback` there; GitHub, Google, Entra ID, Auth0,
 * Okta and Keycloak have presets, see https://github.com/toolwright/toolwright/blob/main/docs/guide/oauth.md).
 * Without them, a development sign-in: everyone is DEV_USER (default `developer`), after the
 * consent page. It fails closed: some OIDC_ variables without the others, or the development
 * sign-in on an `issuer` off this machine (unless DEV_SIGN_IN=1), throw, and the server does not start.
 */
export function signInFromEnv(env: NodeJS.ProcessEnv, issuer: string): Pick<OAuthServerOptions, 'signIn' | 'upstream'> {
  const missing = OIDC.filter((name) => !env[name]);
  if (missing.length === 0) {
    return { upstream: oidcUpstream({ issuer: env.OIDC_ISSUER!, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET! }) };
  }
  if (missing.length < OIDC.length) {
    throw new Error(`${missing.join(' and ')} ${missing.length === 1 ? 'is' : 'are'} not set: set all of ${OIDC.join(', ')} to sign users in at your OpenID Connect provider, or none of them.`);
  }
  const user = env.DEV_USER ?? 'developer';
  const host = URL.canParse(issuer) ? new URL(issuer).hostname : undefined;
  if (host !== undefined && !LOOPBACK.includes(host) && env.DEV_SIGN_IN !== '1') {
    throw new Error(
      `The issuer ${issuer} is not on this machine, and no sign-in is set up: everyone who reaches it would sign in as '${user}'. ` +
        `Set ${OIDC.join(', ')} (or replace signIn in src/signIn.ts with your own login); ` +
        'DEV_SIGN_IN=1 keeps the development sign-in on purpose (a short test, never a deployment).',
    );
  }
  return { signIn: () => ({ subject: user, scopes: ['notes:read', 'notes:write'] }) };
}
