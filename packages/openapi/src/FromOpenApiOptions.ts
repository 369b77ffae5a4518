/** A secret the server holds: the value itself, or a function that returns it for each request (a rotating token). */
export type OpenApiSecret = string | (() => string | Promise<string>);

/**
 * How the server authenticates to the API. The credential comes from this configuration only:
 * the generated tools have no argument for it, and a parameter of the description that would
 * carry it (the `Authorization` header, the API key's header or query name) is left out of
 * the input schemas, so no MCP client can set or override it.
 */
export type OpenApiAuth = { type: 'bearer'; token: OpenApiSecret } | { type: 'apiKey'; in: 'header' | 'query'; name: string; value: OpenApiSecret };

/** One operation of the description, as the `include` filter and `operations` list see it. */
export interface OpenApiRoute {
  /** Lower-case HTTP method: 'get', 'post', 'put', 'patch' or 'delete'. */
  readonly method: string;
  /** The path template as written in the description (`/pets/{petId}`). */
  readonly path: string;
  /** The operation's `operationId`, when it has one. */
  readonly operationId?: string;
  /** The operation's `tags`. */
  readonly tags: readonly string[];
}

/** How `fromOpenApi` builds the tools and sends their requests. */
export interface FromOpenApiOptions {
  /**
   * Where requests go (`https://api.example.com/v1`): the path templates are appended to it.
   * Required unless `useDocumentServers` is true; the description's `servers` are never used
   * without that consent, since whoever wrote the description would choose where the server's
   * credentials are sent.
   */
  baseUrl?: string;
  /** Take the base URL from the description's first `servers` entry when `baseUrl` is not given. Default false. */
  useDocumentServers?: boolean;
  /** Which operations become tools. Default: every supported operation. */
  include?: (route: OpenApiRoute) => boolean;
  /** Tool names by `operationId`, or by method and path (`'get /pets/{petId}'`, which wins), replacing the generated name. */
  names?: Readonly<Record<string, string>>;
  /** Credentials the server adds to every request. */
  auth?: OpenApiAuth;
  /** Fixed headers the server adds to every request (a `User-Agent`, a tenant header). */
  headers?: Readonly<Record<string, string>>;
  /** Abort a request (connection, headers and body) after this many milliseconds; the call gets an `isError` result. Default 30000. */
  timeoutMs?: number;
  /** The largest response body read, in bytes; a larger one is cut off and the call gets an `isError` result. Default 1 MiB. */
  maxResponseBytes?: number;
  /** How many characters of an error response's body an `isError` result shows. Default 2000. */
  errorBodyChars?: number;
  /** The `fetch` used for requests. Default: the platform's. */
  fetch?: typeof fetch;
}
