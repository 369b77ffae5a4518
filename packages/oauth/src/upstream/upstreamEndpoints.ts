import { ToolwrightError } from '@toolwright/core';
import type { UpstreamProvider } from './UpstreamProvider';
import { PLAIN_HTTP_HOSTS, PLAIN_HTTP_RISK, plainHttpWayOut, upstreamUrlProblem } from './upstreamUrlProblem';

/** Where this server talks to an upstream provider, from its options or its OpenID discovery document. */
export interface UpstreamEndpoints {
  authorization: string;
  token: string;
  userinfo?: string;
  revocation?: string;
  issuer?: string;
  /** The discovery document says `authorization_response_iss_parameter_supported: true`: every callback must carry `iss` (RFC 9207 §2.4). */
  issInResponses?: boolean;
}

/**
 * The endpoints of `provider`: the ones it names, else those of its discovery document at
 * `{issuer}/.well-known/openid-configuration`. A discovery answer is refused, with a message
 * that says which of these it is, when it is not 2xx, when its body is no JSON object (an HTML
 * page, `null`), when it names no issuer or another one (the mix-up defence: the document must
 * be the configured issuer's own), when it lacks an authorization or token endpoint URL
 * that the provider's options do not give either, or when an endpoint URL it gives (authorization,
 * token, userinfo, revocation) is no absolute URL or not https (plain http only on this machine, or
 * on a host the provider's `plainHttpHosts` names).
 */
export async function upstreamEndpoints(provider: UpstreamProvider, http: typeof fetch): Promise<UpstreamEndpoints> {
  const where = `Toolwright oauth: upstream ${provider.name}`;
  if (!provider.issuer) {
    if (!provider.authorizationEndpoint || !provider.tokenEndpoint) throw new ToolwrightError(`${where}: set issuer (OpenID discovery) or authorizationEndpoint and tokenEndpoint`);
    return { authorization: provider.authorizationEndpoint, token: provider.tokenEndpoint, userinfo: provider.userinfoEndpoint, revocation: provider.revocationEndpoint };
  }
  const url = `${provider.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  const response = await http(url, { headers: { accept: 'application/json' } });
  if (!response.ok) throw new ToolwrightError(`${where}: discovery at ${url} answered HTTP ${response.status}; check that issuer is the provider's OpenID Connect issuer.`);
  const body: unknown = await response.json().catch(() => undefined);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    const type = response.headers.get('content-type')?.slice(0, 100) ?? 'no content-type';
    throw new ToolwrightError(
      `${where}: discovery at ${url} answered no JSON object (HTTP ${response.status}, ${type}); check that issuer is the provider's OpenID Connect issuer, and that the provider is up.`,
    );
  }
  const document = body as Record<string, unknown>;
  if (document.issuer === undefined) throw new ToolwrightError(`${where}: the discovery document at ${url} names no issuer; it must name ${provider.issuer} (OpenID Connect Discovery §4.3).`);
  if (document.issuer !== provider.issuer) {
    throw new ToolwrightError(
      `${where}: the discovery document at ${url} names issuer ${JSON.stringify(document.issuer)?.slice(0, 200)}, not ${provider.issuer}: set issuer to the provider's exact issuer (a trailing slash counts), or this is another provider's document.`,
    );
  }
  /** The document's URL in `field` (an option given for it wins); undefined when it has none and it is `optional`. */
  function endpoint(field: string, given: string | undefined, option: string): string;
  function endpoint(field: string, given: string | undefined, option: string, optional: true): string | undefined;
  function endpoint(field: string, given: string | undefined, option: string, optional = false): string | undefined {
    if (given !== undefined) return given;
    const value = document[field];
    if (optional && (value === undefined || value === null)) return undefined;
    const problem = typeof value === 'string' ? upstreamUrlProblem(value, provider.plainHttpHosts) : 'not absolute';
    if (problem === undefined) return value as string;
    if (!optional && problem === 'not absolute') {
      throw new ToolwrightError(`${where}: the discovery document at ${url} has no ${field} URL; set ${option} on the upstream provider, or fix its discovery document.`);
    }
    const shown = typeof value === 'string' ? `'${value.slice(0, 200)}'` : JSON.stringify(value).slice(0, 200);
    if (problem === 'not absolute') {
      throw new ToolwrightError(`${where}: the discovery document at ${url} gives ${field} ${shown}, which is no absolute URL; set ${option} on the upstream provider, or fix its discovery document.`);
    }
    throw new ToolwrightError(
      `${where}: the discovery document at ${url} gives ${field} ${shown}, which is not https (${PLAIN_HTTP_HOSTS}): ${PLAIN_HTTP_RISK}. Have the provider publish its https endpoints, or set ${option} on the upstream provider to the https one.${plainHttpWayOut(value as string)}`,
    );
  }
  return {
    issuer: provider.issuer,
    authorization: endpoint('authorization_endpoint', provider.authorizationEndpoint, 'authorizationEndpoint'),
    token: endpoint('token_endpoint', provider.tokenEndpoint, 'tokenEndpoint'),
    userinfo: endpoint('userinfo_endpoint', provider.userinfoEndpoint, 'userinfoEndpoint', true),
    revocation: endpoint('revocation_endpoint', provider.revocationEndpoint, 'revocationEndpoint', true),
    issInResponses: document.authorization_response_iss_parameter_supported === true,
  };
}
