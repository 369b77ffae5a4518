import { ConfigError } from '@toolwright/core';
import type { UpstreamProvider } from './UpstreamProvider';
import { PLAIN_HTTP_HOSTS, PLAIN_HTTP_RISK, upstreamUrlProblem } from './upstreamUrlProblem';

/** The URL options of an upstream provider, with an example of each. */
const URL_OPTIONS = [
  ['issuer', 'https://idp.example.com'],
  ['authorizationEndpoint', 'https://idp.example.com/authorize'],
  ['tokenEndpoint', 'https://idp.example.com/token'],
  ['userinfoEndpoint', 'https://idp.example.com/userinfo'],
  ['revocationEndpoint', 'https://idp.example.com/revoke'],
] as const;

/**
 * Refuses, with a ConfigError at start, an upstream provider's issuer or endpoint that is no
 * absolute URL, or not https (plain http only on localhost, 127.0.0.1 or [::1]).
 */
export function checkUpstreamUrls(provider: UpstreamProvider): void {
  for (const [option, example] of URL_OPTIONS) {
    if (provider[option] === undefined) continue;
    const given = String(provider[option]);
    const problem = upstreamUrlProblem(given);
    const where = `Toolwright oauth: upstream ${provider.name}: ${option}`;
    if (problem === 'not absolute') throw new ConfigError(`${where} must be an absolute URL, got '${given}'. Give the provider's full URL, e.g. '${example}'.`);
    if (problem === 'not https') {
      const https = `https:${given.slice(given.indexOf(':') + 1)}`;
      throw new ConfigError(`${where} must be an https URL (${PLAIN_HTTP_HOSTS}), got '${given}': ${PLAIN_HTTP_RISK}. Give the https one, e.g. '${https}'.`);
    }
  }
}
