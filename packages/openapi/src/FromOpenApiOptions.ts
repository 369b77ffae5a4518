import type { ToolTransforms } from '@toolwright/core';

/** A secret the server holds: the value itself, or a function that returns it for each request (a rotating token). */
export type OpenApiSecret = string | (() => string | Promise<string>);

/**
 * How the server authenticates to the API. The credential comes from this configuration only:
 * the generated tools have no argument for it, and a parameter of the description that would
 * carry it (the `Authorization` header, the API key's header or query name) is left out of
 * the input schemas, so no MCP client can set or override it.
 */
export type OpenApiAuth = { type: 'bearer'; token: OpenApiSecret } | { type: 'apiKey'; in: 'header' | 'query'; name: string; value: OpenApiSecret } | OAuthClientCredentials;

/**
 * OAuth 2.0 client credentials (RFC 6749 section 4.4): the server asks `tokenUrl` for an access
 * token with its own client id and secret, sends it as a bearer token, keeps it until shortly
 * before `expires_in` runs out (one request for it however many calls wait), and asks again
 * then, or once when the API answers 401.
 */
export interface OAuthClientCredentials {
  /** Selects OAuth client credentials. */
  type: 'oauth2';
  /** The authorization server's token endpoint (https:, or http: on a loopback host). */
  tokenUrl: string;
  /** The server's client id at the authorization server. */
  clientId: string;
  /** Its client secret: the value, or a function that returns it for each token request. */
  clientSecret: OpenApiSecret;
  /** Scopes asked for (the `scope` parameter). */
  scopes?: readonly string[];
  /** Extra token request parameters, e.g. `{ audience: 'https://api.example.com' }` or `{ resource: ... }`. */
  params?: Readonly<Record<string, string>>;
  /** How the client authenticates: HTTP Basic (`client_secret_basic`, the default) or form fields (`client_secret_post`). */
  clientAuth?: 'basic' | 'body';
  /** Renew this many seconds before the token expires. Default 30. */
  renewBeforeSeconds?: number;
}

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
  /**
   * Which external `$ref`s of the description are read: called with the absolute file path or the
   * http(s) URL (and each URL a download redirects to). Default: files under the description
   * file's own folder, URLs on the description URL's origin, and none for a description given as
   * an object, so a description from a third party cannot make the server read your files or
   * call other hosts. Each file or download is read up to 64 MiB, a download for up to 60 s.
   */
  allowExternalRef?: (url: string) => boolean;
  /** Which operations become tools. Default: every supported operation. */
  include?: (route: OpenApiRoute) => boolean;
  /**
   * Which of the description's patterns that a linear-time engine cannot run may run on
   * JavaScript's own `RegExp` instead. Every `pattern` and `patternProperties` name of the
   * description runs on RE2 (re2js), whose time grows linearly with the string, and matches the
   * same strings as in JavaScript: `RegExp` backtracks, so a pattern such as `^(a+)+$` or
   * `^(\w+\s?)*$` could stall the whole server on one crafted argument. RE2 cannot run
   * lookbehinds, backreferences, lookaheads (other than right after a leading `^`, as in
   * `^(?=.*\d).{8,}$`), counts above 1000, or counted repetitions adding up past 2,500 RE2
   * instructions (`^[a-z0-9]{1,1000}$` takes about 2,000); such a pattern in an input schema is a
   * `ConfigError` at start, naming it and where it is, unless this returns true for it
   * (`(pattern, where) => ...`, `where` as in `GET /pets parameter 'q'/pattern`). Return true only
   * for patterns you know cannot backtrack badly. A response schema with such a pattern is served
   * without an output schema instead. Default: none.
   */
  allowBacktrackingPattern?: (pattern: string, where: string) => boolean;
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
  /**
   * Give each tool the success response's JSON object schema as its `outputSchema` (results then
   * carry `structuredContent` checked against it; a response that does not match is an `isError`
   * result). Default true; turn it off for an API whose responses stray from its description.
   */
  outputSchemas?: boolean;
  /** Changes to the generated tools by tool name: rename, new description, hidden or narrowed arguments (see the Transforms guide). */
  transforms?: ToolTransforms;
  /**
   * Which GET operations become resources instead of tools, and which operations are left out:
   * the first rule that matches an operation decides; an operation no rule matches is a tool.
   */
  routes?: readonly RouteMap[];
}

/** One rule of `routes`: which operations it matches (all given conditions must hold) and what they become. */
export interface RouteMap {
  /** Lower-case methods, e.g. ['get']. Default: any. */
  methods?: readonly string[];
  /** Matches the path template (`/pets/{petId}`): a regular expression, or a string the path must start with. */
  path?: RegExp | string;
  /** The operation has at least one of these tags. */
  tags?: readonly string[];
  /**
   * 'tool'; 'exclude' (not served); 'resource': a GET becomes a resource read at the API's URL
   * (`<baseUrl>/pets`), or a resource template when the path has parameters
   * (`<baseUrl>/pets/{petId}`). A 'resource' rule matching another method is a `ConfigError`.
   */
  to: 'tool' | 'resource' | 'exclude';
}
