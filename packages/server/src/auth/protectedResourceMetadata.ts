import { ConfigError } from '@toolwright/core';
import type { HttpAuthOptions } from './HttpAuthOptions';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The RFC 9728 protected resource metadata document, and where it is served. */
export interface ProtectedResourceMetadata {
  /** This server's resource URL (`auth.resource`), which tokens must be issued for. */
  readonly resource: string;
  /** The metadata's absolute URL: what `WWW-Authenticate` points clients to. */
  readonly url: string;
  /** Request paths that serve it: the path-suffixed form (RFC 9728 §3.1) and the root form. */
  readonly paths: readonly string[];
  readonly document: Readonly<Record<string, unknown>>;
}

export function protectedResourceMetadata(options: HttpAuthOptions): ProtectedResourceMetadata {
  if (options.resource === undefined) {
    throw new ConfigError(
      "Toolwright: auth.resource is required with createHttpHandler: set it to this server's URL as clients reach it (e.g. 'https://mcp.example.com/mcp'). app.listen fills it in with the URL it listens on.",
    );
  }
  let resource: URL;
  try {
    resource = new URL(options.resource);
  } catch {
    throw new ConfigError(`Toolwright: auth.resource must be this server's absolute URL (e.g. 'https://mcp.example.com/mcp'), got '${options.resource}'.`);
  }
  if (options.authorizationServers.length === 0) {
    throw new ConfigError('Toolwright: auth.authorizationServers must name at least one authorization server (its issuer URL), so clients know where to get a token.');
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
  return Object.freeze({ resource: options.resource, url: `${resource.origin}${paths[0]}`, paths, document: Object.freeze(document) });
}
