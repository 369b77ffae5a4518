import type { ContainerLike, MemberAccess, Middleware, ToolContext } from '@toolwright/core';
import type { InFlight } from './InFlight';
import type { ContextEnv } from './createToolContext';
import type { Connection } from './Connection';

/**
 * A container for the services of one call, and its end: request- and session-scoped
 * services (see `ServiceScopes`). Undefined when every service lives as long as the app.
 */
export interface CallContainer {
  readonly container: ContainerLike;
  /** Called once the call has answered; disposes what the call alone used. */
  release(): void;
}

/** Opens the container of one call from what the call knows: who asks for which member (its session among it), its connection, and its context (read when a class asks for it). */
export type OpenCallContainer = (access: MemberAccess, connection: Connection, context: () => ToolContext | undefined) => CallContainer;

/** Per-app state every call goes through, shared by all connections. */
export interface PipelineEnv extends ContextEnv {
  /** The app's container: builds unscoped guard and middleware classes, and members when no scope is open. */
  readonly container: ContainerLike;
  /** The app's `middleware`, outermost first (around every member's own). */
  readonly middleware: readonly Middleware[];
  /** Counts running calls of every kind, for the drain on shutdown. */
  readonly inFlight: InFlight;
  /** The app's default timeout for tool calls; undefined for none. */
  readonly toolTimeoutMs: number | undefined;
  /** How long guards may take to decide for a member without a timeout, and at most for a list (the app's `guardTimeoutMs`). */
  readonly guardTimeoutMs: number;
  /** The app's default timeout for resource reads and prompts; undefined for none. */
  readonly timeoutMs: number | undefined;
  /** Opens the per-call container of apps with scoped services, and of connections with overrides. */
  readonly openContainer: OpenCallContainer;
  /** Whether some served class, middleware or guard is `@Scoped` (then every call opens a container). */
  readonly scopes: { active: boolean };
  /** The longest URI matched against the resource templates (the app's `maxUriLength`). */
  readonly maxUriLength: number;
}
