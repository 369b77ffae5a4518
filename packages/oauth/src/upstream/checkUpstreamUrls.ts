import { ConfigError } from '@toolwright/core';
import type { UpstreamProvider } from './UpstreamProvider';
import { PLAIN_HTTP_HOSTS, PLAIN_HTTP_RISK, plainHttpHostProblem, plainHttpWayOut, upstreamUrlProblem } from './upstreamUrlProblem';

/** The URL options of an upstream provider, with an example of each. */
const URL_OPTIONS = [
  ['issuer', 'https://idp.example.com'],
  ['authorizationEndpoint', 'https://idp.example.com/authorize'],
  ['tokenEndpoint', 'https://idp.example.com/token'],
  ['userinfoEndpoint', 'https://idp.example.com/userinfo'],
  ['revocationEndpoint', 'https://idp.example.com/revoke'],
] as const;

/**
 * Refuses, with a ConfigError at start, an upstream provider's `plainHttpHosts` that is not an
 * array of hosts, and its issuer or endpoint that is no absolute URL, or not https (plain http
 * only on localhost, 127.0.0.1 or [::1], or on a host `plainHttpHosts` names).
 */
export function checkUpstreamUrls(provider: UpstreamProvider): void {
  const hosts: unknown = provider.plainHttpHosts;
  if (hosts !== undefined) {
    const problem = Array.isArray(hosts)
      ? hosts.map(plainHttpHostProblem).find((found) => found !== undefined)
      : `must be an array of host names, got ${(JSON.stringify(hosts) ?? String(hosts)).slice(0, 200)}`;
    if (problem !== undefined) {
      throw new ConfigError(
        `Toolwright oauth: upstream ${provider.name}: plainHttpHosts ${problem}. List the host names (or host:port) of a provider on a private network that this server may reach over plain http, e.g. plainHttpHosts: ['keycloak'] or ['keycloak:8080'].`,
      );
    }
  }
  const plainHttpHosts = (hosts as readonly string[] | undefined) ?? [];
  for (const [option, example] of URL_OPTIONS) {
    if (provider[option] === undefined) continue;
    const given = String(provider[option]);
    const problem = upstreamUrlProblem(given, plainHttpHosts);
    const where = `Toolwright oauth: upstream ${provider.name}: ${option}`;
    if (problem === 'not absolute') throw new ConfigError(`${where} must be an absolute URL, got '${given}'. Give the provider's full URL, e.g. '${example}'.`);
    if (problem === 'not https') {
      const https = `https:${given.slice(given.indexOf(':') + 1)}`;
      throw new ConfigError(`${where} must be an https URL (${PLAIN_HTTP_HOSTS}), got '${given}': ${PLAIN_HTTP_RISK}. Give the https one, e.g. '${https}'.${plainHttpWayOut(given)}`);
    }
  }
}
