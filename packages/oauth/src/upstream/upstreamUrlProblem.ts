/** The hosts an upstream provider may be reached at over plain http: this machine (tests, local development). */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Where plain http is taken, as the messages say it. */
export const PLAIN_HTTP_HOSTS = 'http only on localhost, 127.0.0.1 or [::1]';

/** What plain http to a provider would risk, as the messages say it. */
export const PLAIN_HTTP_RISK = 'over plain http, anyone on the way could read or change what this server exchanges with the provider (its client secret, codes and tokens)';

/**
 * Why `value` cannot be a URL of an upstream provider (its issuer, or an endpoint this server
 * sends the browser to or its client secret, codes and tokens to): `not absolute` when it is no
 * absolute URL, `not https` when its scheme is other than https, but for plain http on this
 * machine; undefined when it can be.
 */
export function upstreamUrlProblem(value: string): 'not absolute' | 'not https' | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return 'not absolute';
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname))) return undefined;
  return 'not https';
}
