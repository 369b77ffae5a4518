import type { LogLevel } from './ClientLogger';

/** Which revision family a request came in on: sessions up to 2025-11-25, or the stateless 2026-07-28. */
export type ProtocolEra = 'legacy' | 'modern';

/**
 * What the client said about itself for this request, the same in both eras: a 2026-07-28
 * request carries it in its `_meta` envelope; a 2025-era session said it at `initialize`
 * (and with `logging/setLevel`). Core's own view, free of any SDK type.
 */
export interface RequestEnvelope {
  /** The protocol revision the request is served on, e.g. '2026-07-28' or '2025-11-25'. */
  readonly protocolVersion: string | undefined;
  /** The capabilities the client declared (`sampling`, `elicitation`, `roots`, ...). */
  readonly clientCapabilities: Readonly<Record<string, unknown>>;
  /** The client's name and version, when it sent them. */
  readonly clientInfo: { readonly name: string; readonly version: string; readonly title?: string } | undefined;
  /**
   * The lowest level of `ctx.log` the client receives. On a 2026-07-28 request it comes
   * with the request, and none means no log notifications at all.
   */
  readonly logLevel: LogLevel | undefined;
  /** W3C trace context from `_meta` (`traceparent`, `tracestate`, `baggage`), for tracing the call. */
  readonly trace: { readonly traceparent?: string; readonly tracestate?: string; readonly baggage?: string };
}
