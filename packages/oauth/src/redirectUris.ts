/** Redirect URI rules: which a client may register (by its application type) and how a request's is matched (exactly; RFC 8252 §7.3 for loopback ports). */

export type ApplicationType = 'web' | 'native';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname);
}

/** A private-use scheme of a native app (RFC 8252 §7.1): reverse domain name, e.g. `com.example.app:/callback`. */
function isPrivateUseScheme(url: URL): boolean {
  const scheme = url.protocol.slice(0, -1);
  return scheme.includes('.') && /^[a-z][a-z0-9+.-]*$/.test(scheme);
}

/** Why `uri` may not be registered by a client of `type`, or undefined when it may. */
export function redirectUriProblem(uri: unknown, type: ApplicationType): string | undefined {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2000) return 'each redirect URI must be a string of 1 to 2000 characters';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return `redirect URI '${uri}' is not an absolute URL`;
  }
  if (url.hash || uri.includes('#')) return `redirect URI '${uri}' must not have a fragment`;
  if (url.username || url.password) return `redirect URI '${uri}' must not carry credentials`;
  if (url.protocol === 'https:') return undefined;
  if (isLoopbackHttp(url)) {
    return type === 'native' ? undefined : `redirect URI '${uri}' is a loopback address: register the client with application_type "native"`;
  }
  if (url.protocol === 'http:') return `redirect URI '${uri}' must use https (plain http is only for loopback addresses of native apps)`;
  if (isPrivateUseScheme(url)) return type === 'native' ? undefined : `redirect URI '${uri}' uses a private-use scheme: register the client with application_type "native"`;
  return `redirect URI '${uri}' must use https, http on a loopback address, or a private-use scheme in reverse domain form (e.g. com.example.app:/callback)`;
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
