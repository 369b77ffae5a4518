import type { SessionState } from './SessionState';
import type { Class } from '../metadata/Class';
import type { ClientLogger } from './ClientLogger';
import type { ProtocolEra, RequestEnvelope } from './RequestEnvelope';
import type { ElicitationSchema, ElicitOutcome, Root, SamplingRequest, SamplingResult, UrlElicitOutcome } from './ClientRequests';

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

/** Options of a question to the client (`ctx.elicit`, `ctx.elicitUrl`, `ctx.sample`, `ctx.listRoots`). */
export interface RoundTripOptions {
  /**
   * The question's name in a 2026-07-28 `input_required` round (its `inputRequests` key).
   * Default: its position among the method's questions (`elicit-1`, `sample-2`, ...).
   * Ignored in the 2025 era, where the question is a request to the client.
   */
  key?: string;
  /**
   * In the 2025 era, how long to wait for the client's answer: past it the question fails with
   * a `ToolError` that says so. Default 10 minutes for `elicit`, `elicitUrl` and `sample`, which
   * a person may answer, and 60 s for `listRoots`. The call's own `timeoutMs` and a cancellation
   * end the wait sooner. Ignored in the 2026-07-28 era, where the client answers with a retry
   * when it is ready.
   */
  timeoutMs?: number;
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
  /**
   * State kept for the client's session (2025-era sessions: stdio, stateful HTTP); undefined
   * where requests have no session (stateless HTTP, 2026-07-28 requests).
   */
  readonly session?: SessionState;
  /** The HTTP request's headers, lower-cased (Streamable HTTP only; undefined over stdio). */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>>;
  /** The authenticated caller, when the transport has one. */
  readonly authInfo: AuthInfo | undefined;
  /**
   * The protocol era of this request: 'legacy' (a 2025-era session, or per-request 2025 HTTP)
   * or 'modern' (2026-07-28, stateless). The tool's code is the same in both.
   */
  readonly era: ProtocolEra;
  /** Protocol version, client capabilities and info, log level and trace context of this request. */
  readonly envelope: RequestEnvelope;
  /** The request's `_meta` (progress token and client-defined metadata; the protocol's own reserved keys are in `envelope`). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Logs to the client (`notifications/message`), filtered by the level it set with `logging/setLevel`. */
  readonly log: ClientLogger;
  /**
   * Reports progress to the client, only if it asked for it (sent a progress token): use
   * values that increase (others are dropped), a `total` when known, and an optional message.
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /**
   * Asks the user for input through the client (form-mode elicitation). Pass a class-validator
   * DTO class (the accepted content is validated and returned as an instance) or a raw schema.
   * Throws a `ToolError` (an `isError` result) when the client does not support elicitation.
   * On a 2026-07-28 request the answer comes in a later round and the method runs again (see
   * the "Protocol eras" guide); `key` names the question in that round (default: its position).
   */
  elicit<T extends object>(message: string, form: Class<T>, options?: RoundTripOptions): Promise<ElicitOutcome<T>>;
  elicit(message: string, form: ElicitationSchema, options?: RoundTripOptions): Promise<ElicitOutcome<Record<string, unknown>>>;
  /** Sends the user to a URL (URL-mode elicitation, e.g. for an OAuth flow or a payment). */
  elicitUrl(message: string, url: string, options?: RoundTripOptions & { elicitationId?: string }): Promise<UrlElicitOutcome>;
  /** Asks the client's model for a completion (`sampling/createMessage`); a string is one user message. */
  sample(request: SamplingRequest | string, options?: RoundTripOptions & { maxTokens?: number; systemPrompt?: string }): Promise<SamplingResult>;
  /** The client's roots (`roots/list`). */
  listRoots(options?: RoundTripOptions): Promise<Root[]>;
  /** What the client declared it supports (`sampling`, `elicitation`, `roots`, ...): at initialize, or in a 2026-07-28 request's `_meta`. */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /**
   * SSE polling: ends this call's response stream now, so a long call does not hold an HTTP
   * connection. The client reconnects with `Last-Event-ID` (after the `sseRetryMs` the server
   * advertised) and receives what follows, the result included. Only over Streamable HTTP
   * with resumability (an event store, the default) and a 2025-11-25 client; returns false
   * anywhere else (stdio, JSON responses), and the call goes on either way.
   */
  closeStream(): boolean;
}
