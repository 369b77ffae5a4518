import type { TokenVerifier } from './TokenVerifier';

/** Bearer-token authentication for the HTTP endpoint (this server acts as an OAuth 2.1 resource server). */
export interface HttpAuthOptions {
  /** Checks each request's token: your own function, or `jwtVerifier({ ... })`. */
  verifyToken: TokenVerifier;
  /**
   * This server's canonical resource URL, as clients reach it (e.g. `https://mcp.example.com/mcp`).
   * Tokens must be issued for it (RFC 8707); it is the `resource` in the RFC 9728 metadata.
   * `app.listen` defaults it to the URL it listens on (with the real port when `port` is 0);
   * `createHttpHandler` requires it. Set it whenever clients reach the server by another URL.
   */
  resource?: string;
  /**
   * The OAuth authorization servers that issue tokens for this resource (RFC 9728
   * `authorization_servers`), advertised in the metadata that `WWW-Authenticate` points to.
   * Leave it out when no authorization server issues the tokens (static tokens, API keys):
   * then no metadata is served (the MCP spec requires an authorization server in it) and the
   * challenge is `Bearer realm="mcp"`, so clients ask for a token instead of looking for a
   * server to sign in at.
   */
  authorizationServers?: readonly string[];
  /** Scopes this resource understands, advertised in the metadata. */
  scopesSupported?: readonly string[];
  /**
   * Scopes every request needs, whatever it calls (403 `insufficient_scope` otherwise).
   * Default none. Cannot be combined with `allowAnonymous` (a `ConfigError` at startup):
   * put scopes on the members that need them instead.
   */
  requiredScopes?: readonly string[];
  /**
   * Let requests without an Authorization header through as anonymous callers: they see
   * and call only tools without rules and `@Public()` ones. A present but invalid token still
   * gets 401. Not with `requiredScopes`, which every caller must hold. Default false.
   */
  allowAnonymous?: boolean;
  /**
   * The clock skew tolerated when checking `authInfo.expiresAt`, in seconds. Default: the
   * verifier's (`jwtVerifier`'s `clockToleranceSeconds`), else 30.
   */
  clockToleranceSeconds?: number;
  /** A human-readable name for the metadata (`resource_name`). */
  resourceName?: string;
  /** A page documenting this server (`resource_documentation`). */
  resourceDocumentation?: string;
}
