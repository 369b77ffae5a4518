/** Who is calling, as established by the transport's authentication (HTTP bearer token or an app-supplied provider). */
export interface AuthInfo {
  /** The raw access token. Never forward it to other services: get credentials of your own for them. */
  token: string;
  clientId: string;
  scopes: string[];
  /** Expiry in seconds since the epoch. */
  expiresAt?: number;
  /** The resource (this server's URL) the token was issued for (RFC 8707). */
  resource?: URL;
  extra?: Record<string, unknown>;
}

/** A logger for tool code. It writes to stderr, never to stdout (which carries the protocol over stdio). */
export interface ToolLogger {
  debug(message: string, data?: unknown): void;
  info(message: string, data?: unknown): void;
  warn(message: string, data?: unknown): void;
  error(message: string, data?: unknown): void;
}

/** The per-call context a tool receives through `@Ctx()`. */
export interface ToolContext {
  /** The tool's name as clients call it. */
  readonly toolName: string;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: string | number;
  /** Aborted when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  /** The transport session id (Streamable HTTP, stateful); undefined over stdio. */
  readonly sessionId: string | undefined;
  /** The HTTP request's headers, lower-cased (Streamable HTTP only; undefined over stdio). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The authenticated caller, when the transport has one. */
  readonly authInfo: AuthInfo | undefined;
  /** The request's `_meta` (progress token and client-defined metadata). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  readonly log: ToolLogger;
}
