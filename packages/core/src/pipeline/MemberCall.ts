import type { AuthInfo, ToolLogger } from '../context/ToolContext';
import type { ProtocolEra, RequestEnvelope } from '../context/RequestEnvelope';
import type { Class } from '../metadata/Class';
import type { ToolAnnotations } from '../metadata/ToolOptions';

/** What a served method is: a tool, a resource (static or template) or a prompt. */
export type MemberKind = 'tool' | 'resource' | 'prompt';

/** Which member, and who asks for it: what guards decide on (at list time there are no arguments yet). */
export interface MemberAccess {
  readonly kind: MemberKind;
  /** The tool or prompt name; for a resource, its URI (static) or URI template. */
  readonly name: string;
  /** The class that serves it, and the method. */
  readonly target: Class;
  readonly methodName: string;
  /** The tool's annotations (`readOnlyHint`, `idempotentHint`, ...); undefined for resources and prompts. */
  readonly annotations: ToolAnnotations | undefined;
  /** The authenticated caller, when the transport has one (HTTP bearer token, stdio auth provider). */
  readonly authInfo: AuthInfo | undefined;
  /** The 2025-era session (stateful HTTP); undefined over stdio, stateless HTTP and on 2026-07-28 requests. */
  readonly sessionId: string | undefined;
  /** 'legacy' (2025-era) or 'modern' (2026-07-28). */
  readonly era: ProtocolEra;
  /** The client's protocol version, capabilities, info, log level and trace context for this request. */
  readonly envelope: RequestEnvelope;
}

/** One call of a member, as middleware sees it: the member, the caller, and the validated arguments. */
export interface MemberCall extends MemberAccess {
  /** The JSON-RPC id of the request. */
  readonly requestId: string | number;
  /**
   * The arguments after validation (defaults filled, strings converted where the schema says):
   * a tool's arguments, a template's URI variables, a prompt's arguments. JSON values, so
   * they make a stable cache key.
   */
  readonly args: Readonly<Record<string, unknown>>;
  /** For a resource read: the URI asked for. */
  readonly uri: string | undefined;
  /** The request's `_meta` as the client sent it. */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Aborted when the client cancels, the connection closes or the call times out. */
  readonly signal: AbortSignal;
  /** The app's logger (`AppOptions.logger`, default stderr): where middleware reports, never stdout. */
  readonly logger: ToolLogger;
}
