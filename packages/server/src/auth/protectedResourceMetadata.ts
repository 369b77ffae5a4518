import { ConfigError } from '@toolwright/core';
import type { HttpAuthOptions } from './HttpAuthOptions';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/**
 * The RFC 9728 protected resource metadata document, and where it is served. Without
 * `auth.authorizationServers` (tokens that no OAuth authorization server issues) there is no
 * document: the MCP spec requires at least one authorization server in it, and naming none
 * sends clients looking for one. Challenges then carry a `realm` instead of `resource_metadata`.
 */
export interface ProtectedResourceMetadata {
  /** This server's resource URL (`auth.resource`), which tokens must be issued for. */
  readonly resource: string;
  /** The `WWW-Authenticate` parameter that tells clients where to learn more: `resource_metadata="<url>"`, or `realm="mcp"` without a document. */
  readonly challengeParam: string;
  /** Request paths that serve the document: the path-suffixed form (RFC 9728 §3.1) and the root form; none without a document. */
  readonly paths: readonly string[];
  readonly document: Readonly<Record<string, unknown>> | undefined;
}

export function protectedResourceMetadata(options: HttpAuthOptions): ProtectedResourceMetadata {
  if (options.resource === undefined) {
    throw new ConfigError(
      "Toolwright: auth.resource is required where you mount the endpoint yourself (createHttpHandler, createFetchHandler, app.fetch, a framework adapter): set it to this server's URL as clients reach it (e.g. 'https://mcp.example.com/mcp'). app.listen fills it in with the URL it listens on.",
    );
  }
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new ConfigError(`Toolwright: auth.resource must be this server's absolute URL (e.g. 'https://mcp.example.com/mcp'), got '${options.resource}'.`);
  }
  if (options.authorizationServers === undefined) {
    return Object.freeze({ resource: options.resource, challengeParam: 'realm="mcp"', paths: [], document: undefined });
  }
  if (options.authorizationServers.length === 0) {
    throw new ConfigError(
      'Toolwright: auth.authorizationServers must name at least one authorization server (its issuer URL), so clients know where to get a token. Leave it out when no authorization server issues your tokens (static tokens, API keys).',
    );
  }
  const suffix = resource.pathname === '/' ? '' : resource.pathname.replace(/\/$/, '');
  const paths = suffix ? [`${WELL_KNOWN}${suffix}`, WELL_KNOWN] : [WELL_KNOWN];
  const document: Record<string, unknown> = {
    resource: options.resource,
    authorization_servers: [...options.authorizationServers],
    bearer_methods_supported: ['header'],
  };
  if (options.scopesSupported) document.scopes_supported = [...options.scopesSupported];
  if (options.resourceName) document.resource_name = options.resourceName;
  if (options.resourceDocumentation) document.resource_documentation = options.resourceDocumentation;
  const challengeParam = `resource_metadata="${quotable(`${resource.origin}${paths[0]}`)}"`;
  return Object.freeze({ resource: options.resource, challengeParam, paths, document: Object.freeze(document) });
}

/** A value for a quoted header parameter: anything but printable ASCII, '"' and '\' is percent-encoded. */
function quotable(value: string): string {
  return value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/gu, (c) => encodeURIComponent(c));
}
