import type { OAuthServerOptions } from './OAuthServerOptions';

/**
 * What `consent: false` exposes when any site may bring a client (open registration, or client ID
 * metadata documents fetched from anywhere): such a client names its own redirect URI, and a user
 * already signed in (a session cookie, or an upstream provider that knows this server as one client)
 * would get its code without a page to refuse it. With `upstream` nothing here can tell the clients
 * apart, and MCP requires a proxy to ask for each client: `error`, unless registration and client
 * documents are both off (a fetcher of the app's own cannot be checked to fetch only its clients'). With `signIn`, the hook sees the
 * client and may refuse those that are not the app's own: `warning`. Undefined when consent is on
 * or no stranger can bring a client.
 */
export function consentOffRisk(options: OAuthServerOptions): { error: string } | { warning: string } | undefined {
  if (options.consent !== false) return undefined;
  const registration = options.registration !== false;
  if (options.upstream) {
    // A fetcher of the app's own may fetch from anywhere (nodeDocumentFetcher with a timeout does): nothing here can tell, so only no documents at all is closed.
    const documents = options.clientDocuments !== false;
    if (!registration && !documents) return undefined;
    const open = registration ? 'open client registration' : 'client ID metadata documents on (with any fetcher: this server cannot tell which sites it fetches from)';
    const closeIt = [registration && 'registration: false', documents && 'clientDocuments: false'].filter(Boolean).join(' and ');
    return {
      error:
        `Toolwright oauth: consent: false with upstream and ${open}: any site could bring a client with its own redirect URI, send a user to it, and get a code for them unseen ` +
        `(the provider knows this server as one client and signs its users in without asking). MCP requires a proxy to ask the user for each client. Remove consent: false, or set ${closeIt}.`,
    };
  }
  const anyDocument = options.clientDocuments !== false && options.clientDocuments?.fetcher === undefined;
  if (!registration && !anyDocument) return undefined;
  const open = registration ? 'open client registration' : 'client ID metadata documents from any site';
  const closeIt = [registration && 'registration: false', anyDocument && 'clientDocuments: false (or a fetcher that fetches only your clients’ documents)'].filter(Boolean).join(' and ');
  return {
    warning:
      `toolwright oauth: consent: false with ${open}: any site can bring a client with its own redirect URI, and when signIn knows the user (a session cookie) that client gets a code for them unseen. ` +
      `Refuse clients that are not yours in signIn (check signIn.client.id and signIn.redirectUri, return { deny: true }), remove consent: false, or set ${closeIt}.`,
  };
}
