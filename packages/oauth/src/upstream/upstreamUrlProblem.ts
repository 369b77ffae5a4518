/** The hosts an upstream provider may be reached at over plain http: this machine (tests, local development). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where plain http is taken, as the messages say it. */
export const PLAIN_HTTP_HOSTS = "http only on localhost, 127.0.0.1 or [::1], or on a host named in the provider's plainHttpHosts";

/** What plain http to a provider would risk, as the messages say it. */
export const PLAIN_HTTP_RISK = 'over plain http, anyone on the way could read or change what this server exchanges with the provider (its client secret, codes and tokens)';

/** A host name, an IPv4 address or a bracketed IPv6 address, with an optional port: what `plainHttpHosts` takes. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i;

/**
 * Why `entry` of an upstream provider's `plainHttpHosts` cannot be taken, to follow
 * `plainHttpHosts` in a message: what it is instead, and how to write it; undefined when it is a host (`keycloak`,
 * `10.0.0.5`, `[fd00::5]`), with or without a port (`keycloak:8080`).
 */
export function plainHttpHostProblem(entry: unknown): string | undefined {
  if (typeof entry !== 'string') return `has ${(JSON.stringify(entry) ?? String(entry)).slice(0, 200)}, which is no string`;
  if (entry.trim() === '') return 'has an empty entry';
  const shown = `'${entry.slice(0, 200)}'`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(entry) || /^https?:/i.test(entry)) {
    let host = '';
    try {
      host = new URL(entry).host;
    } catch {
      // No URL after all: the general example below.
    }
    return `has ${shown}, which is a URL: give its host only (plain http is what the option is about), e.g. '${host || 'keycloak'}'`;
  }
  if (!HOST.test(entry)) return `has ${shown}, which is no host name (or host:port)`;
  try {
    new URL(`http://${entry}/`);
  } catch {
    return `has ${shown}, which is no host name (or host:port)`;
  }
  return undefined;
}

/** Whether plain http to `url` is taken: on this machine, or on a host (any port) or host:port that `plainHttpHosts` names. */
function plainHttpTaken(url: URL, plainHttpHosts: readonly string[]): boolean {
  if (LOOPBACK_HOSTS.has(url.hostname)) return true;
  const hostPort = `${url.hostname}:${url.port || '80'}`;
  return plainHttpHosts.some((entry) => {
    // Through the URL parser, as `url` went: lower case, IPv6 compressed, the default port dropped.
    const named = new URL(`http://${entry}/`);
    return /:\d+$/.test(entry) ? `${named.hostname}:${named.port || '80'}` === hostPort : named.hostname === url.hostname;
  });
}

/**
 * Why `value` cannot be a URL of an upstream provider (its issuer, or an endpoint this server
 * sends the browser to or its client secret, codes and tokens to): `not absolute` when it is no
 * absolute URL, `not https` when its scheme is other than https, but for plain http on this
 * machine or on a host `plainHttpHosts` names (checked at start by `plainHttpHostProblem`);
 * undefined when it can be.
 */
export function upstreamUrlProblem(value: string, plainHttpHosts: readonly string[] = []): 'not absolute' | 'not https' | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not absolute';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && plainHttpTaken(url, plainHttpHosts))) return undefined;
  return 'not https';
}

/**
 * The way out a refusal of `value` names after its risk: for a plain http URL, that a provider on
 * a private network may be named in `plainHttpHosts`; for another scheme, nothing.
 */
export function plainHttpWayOut(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return '';
  }
  if (url.protocol !== 'http:') return '';
  return ` Only if the provider is on a private network with this server (e.g. the same docker compose network), where no one else is on the way, name its host in the upstream provider's plainHttpHosts, e.g. plainHttpHosts: ['${url.host}'].`;
}
