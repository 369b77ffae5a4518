import type { App } from '@toolwright/server';

/**
 * Which request paths are the authorization server's to answer, for an app built with
 * `createApp({ oauth })`: each of its paths, and anything under its issuer's path (with
 * `issuer: 'https://app.example.com/oauth'`, a catch-all route `app/oauth/[...path]/route.ts`
 * sends every `/oauth/...` request here; those it does not serve get its 404). None without `oauth`.
 */
export function authorizationServerPaths(app: App): (path: string) => boolean {
  const oauth = app.oauth;
  if (!oauth) return () => false;
  const paths = new Set(oauth.paths);
  const issuer = oauth.auth.authorizationServers?.[0];
  const issuerPath = issuer ? new URL(issuer).pathname.replace(/\/$/, '') : '';
  return (path) => paths.has(path) || (issuerPath !== '' && path.startsWith(`${issuerPath}/`));
}
