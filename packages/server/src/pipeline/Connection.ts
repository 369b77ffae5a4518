import type { Class, LogLevel, ProtocolEra, ToolDefinition } from '@toolwright/core';
import type { ServiceScope } from '@toolwright/core/internal';
import type { Server, ServerContext } from '../sdk/sdk';

/**
 * What Toolwright keeps for one connection (one SDK `Server`: a stdio process, an HTTP
 * session, or one per-request 2026-07-28 HTTP exchange).
 */
export interface Connection {
  readonly server: Server;
  /** The era this server instance serves, fixed when it is made. */
  readonly era: ProtocolEra;
  /**
   * The most bytes one request may hold on this connection's transport (`ServerSetup.maxRequestBytes`):
   * a 2026-07-28 round whose state the client could not send back in one fails instead. Undefined: no limit.
   */
  readonly maxRequestBytes: number | undefined;
  /** The lowest level sent to this client; `logging/setLevel` changes it (2025 era). */
  logLevel: LogLevel;
  /** URIs this client subscribed to (`resources/subscribe`, 2025 era). */
  readonly subscriptions: Set<string>;
  /** Instances that replace services for this connection's calls (the test kit's `overrides`). */
  readonly overrides?: ReadonlyMap<Class, unknown>;
  /** The container of this connection's session-lifetime services, opened by its first call that needs one. */
  sessionScope?: ServiceScope;
  /**
   * This connection's `tools/call` as the pipeline serves it (2026-07-28 connections), for extensions
   * that run a call themselves; the call counts in flight until `settled` (`ToolRunOverride.settled`) settles too.
   */
  callTool?: (params: ToolCallParams, sdk: ServerContext, settled?: Promise<unknown>) => Promise<Record<string, unknown>>;
  /**
   * Called as a `tools/call` of this connection begins to count in flight (2026-07-28 connections):
   * the server of an extension's run outside any request hands the run's own count over to the call's.
   */
  callCounted?: () => void;
  /**
   * The extensions' `aroundToolCall`, composed (set when one has it): wraps each 2026-07-28 `tools/call`.
   * `next` gets what the extensions' overrides said the run counts in flight until (`ToolRunOverride.settled`).
   */
  aroundToolCall?: (
    params: ToolCallParams,
    tool: ToolDefinition | undefined,
    sdk: ServerContext,
    next: (sdk: ServerContext, settled: readonly Promise<unknown>[]) => Promise<Record<string, unknown>>,
  ) => Promise<Record<string, unknown>>;
}

/** The params of a `tools/call`. */
export interface ToolCallParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
}
