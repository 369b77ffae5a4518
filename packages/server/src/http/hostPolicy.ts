const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Compiles the Host rule once. A request that arrived on a loopback address must name a
 * loopback host: a DNS-rebinding page resolves its own name to 127.0.0.1, and its requests
 * then carry that foreign name in Host. With `allowedHosts`, every request must name one
 * of them. Ports are ignored. `arrivedOnLoopback`: the connection came in on a loopback
 * address (node: the socket's local address), or the runtime cannot tell (a fetch handler).
 */
export function createHostPolicy(allowedHosts: readonly string[] | undefined): (host: string | undefined, arrivedOnLoopback: boolean) => boolean {
  const allowed = new Set((allowedHosts ?? []).map((h) => h.toLowerCase()));
  const loopback = new Set(LOOPBACK_HOSTS);
  if (allowedHosts) for (const h of LOOPBACK_HOSTS) allowed.add(h);
  return (host, arrivedOnLoopback) => {
    const name = hostName(host);
    if (allowedHosts) return name !== undefined && allowed.has(name);
    return !arrivedOnLoopback || (name !== undefined && loopback.has(name));
  };
}

/** The host name of a Host header, lower-cased, without the port; `[::1]` keeps its brackets. */
export function hostName(host: string | undefined): string | undefined {
  if (!host) return undefined;
  const lower = host.toLowerCase();
  if (lower.startsWith('[')) {
    const end = lower.indexOf(']');
    return end === -1 ? undefined : lower.slice(0, end + 1);
  }
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  return address.startsWith('127.') || address === '::1' || address.startsWith('::ffff:127.');
}
