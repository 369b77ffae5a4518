import { ConfigError } from '@toolwright/core';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Compiles the Host rule once. A request that arrived on a loopback address must name a
 * loopback host: a DNS-rebinding page resolves its own name to 127.0.0.1, and its requests
 * then carry that foreign name in Host. With `allowedHosts`, every request must name one
 * of them. Ports are ignored. `arrivedOnLoopback`: the connection came in on a loopback
 * address (node: the socket's local address), or the runtime cannot tell (a fetch handler).
 * An `allowedHosts` entry that is no bare host name (`mcp.example.com:443`) could never match
 * and would refuse every request: it is refused here, at start, with the entry to write instead.
 */
export function createHostPolicy(allowedHosts: readonly string[] | undefined): (host: string | undefined, arrivedOnLoopback: boolean) => boolean {
  for (const entry of allowedHosts ?? []) checkAllowedHost(entry);
  const allowed = new Set((allowedHosts ?? []).map((h) => h.toLowerCase()));
  const loopback = new Set(LOOPBACK_HOSTS);
  if (allowedHosts) for (const h of LOOPBACK_HOSTS) allowed.add(h);
  return (host, arrivedOnLoopback) => {
    const name = hostName(host);
    if (allowedHosts) return name !== undefined && allowed.has(name);
    return !arrivedOnLoopback || (name !== undefined && loopback.has(name));
  };
}

/** Refuses an `allowedHosts` entry that a Host header's name (the port left out) can never equal. */
function checkAllowedHost(entry: unknown): void {
  const name = typeof entry === 'string' ? hostName(entry) : undefined;
  if (name && typeof entry === 'string' && name === entry.toLowerCase()) return;
  const fix = name ? `Write ${JSON.stringify(name)}: ports are not compared, the rule checks the name alone.` : "Give bare host names, such as 'mcp.example.com' or '[::1]' (IPv6 in brackets).";
  throw new ConfigError(`Toolwright: allowedHosts entry ${JSON.stringify(entry)} is not a host name without a port, so no request would match it (every one would get 403). ${fix}`);
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
