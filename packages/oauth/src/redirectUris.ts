/** Redirect URI rules: which a client may register (by its application type) and how a request's is matched (exactly; RFC 8252 §7.3 for loopback ports). */

import { uriSyntaxProblem } from './uriSyntaxProblem';

export type ApplicationType = 'web' | 'native';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/**
 * Schemes that are not an app's: the browser runs, shows or reads them itself, so a code sent
 * there would reach a page or a file instead of the client. Refused whatever the application type.
 */
const NOT_PRIVATE_USE = new Set(['javascript', 'vbscript', 'data', 'blob', 'file', 'filesystem', 'about', 'view-source', 'ftp', 'ws', 'wss']);

/**
 * A private-use scheme of a native app (RFC 8252 §7.1), e.g. `com.example.app:/callback`, or the
 * single-word schemes real MCP clients register (`cursor://`, `vscode://`): §7.1's
 * reverse-domain-name rule binds the app choosing its scheme, not the server, and refusing
 * those would lock popular clients out.
 */
function isPrivateUseScheme(url: URL): boolean {
  const scheme = url.protocol.slice(0, -1);
  return scheme !== 'http' && scheme !== 'https' && !NOT_PRIVATE_USE.has(scheme);
}

/**
 * Why `uri` may not be registered by a client of `type` (what follows the URI in a message,
 * e.g. "has a fragment (#)"), or undefined when it may. The URI must be exactly an RFC 3986
 * absolute URI: the WHATWG parser's repairs would send the browser elsewhere than registered.
 */
export function redirectUriProblem(uri: unknown, type: ApplicationType): string | undefined {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2000) return 'must be a string of 1 to 2000 characters';
  const syntax = uriSyntaxProblem(uri);
  if (syntax) return syntax;
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'is not a URL a browser can follow (e.g. its port is above 65535 or its IPv6 address is malformed)';
  }
  // `https:host/cb` and `https:///host/cb` are valid RFC 3986 but name no host; browsers would read `host` as one.
  if ((url.protocol === 'https:' || url.protocol === 'http:') && !/^https?:\/\/[^/?#]/i.test(uri)) return `must name a host: ${url.protocol}//host/path`;
  if (url.protocol === 'https:') return undefined;
  if (isLoopbackHttp(url)) return type === 'native' ? undefined : 'is a loopback address: register the client with application_type "native"';
  if (url.protocol === 'http:') return 'must use https (plain http is only for loopback addresses of native apps)';
  if (!isPrivateUseScheme(url)) return `uses the scheme ${url.protocol} which is not an app's: use https, http on a loopback address, or the app's own scheme`;
  return type === 'native' ? undefined : 'uses a private-use scheme: register the client with application_type "native"';
}

/** The type a client did not state, from its redirect URIs: native when all are loopback or private-use. */
export function inferApplicationType(uris: readonly string[]): ApplicationType {
  return uris.length > 0 &&
    uris.every((uri) => {
      try {
        const url = new URL(uri);
        return isLoopbackHttp(url) || isPrivateUseScheme(url);
      } catch {
        return false;
      }
    })
    ? 'native'
    : 'web';
}

/**
 * Whether `requested` is one of `registered`: the exact string (RFC 3986 §6.2.1 simple string
 * comparison: no case folding, no normalization), except that a loopback http URI matches
 * whatever its port (RFC 8252 §7.3: native apps listen on an ephemeral port). A fragment, even
 * an empty one, never matches.
 */
export function matchRedirectUri(registered: readonly string[], requested: string): boolean {
  if (requested.includes('#')) return false;
  if (registered.includes(requested)) return true;
  const portless = withoutLoopbackPort(requested);
  return portless !== undefined && isParsable(requested) && registered.some((uri) => withoutLoopbackPort(uri) === portless);
}

/** Where a loopback http URI is written with a port: `http://127.0.0.1:8976/cb` -> `http://127.0.0.1/cb`; undefined for any other URI. */
const LOOPBACK_AUTHORITY = /^http:\/\/(127\.0\.0\.1|\[::1\]|localhost)(?::\d{1,5})?(?=[/?]|$)/;

function withoutLoopbackPort(uri: string): string | undefined {
  const authority = LOOPBACK_AUTHORITY.exec(uri);
  return authority ? `http://${authority[1]}${uri.slice(authority[0].length)}` : undefined;
}

function isParsable(uri: string): boolean {
  try {
    new URL(uri);
    return true;
  } catch {
    return false;
  }
}
