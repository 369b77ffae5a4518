import type { AccessRules, AuthInfo, Class, ParamHeader, ProtocolEra, ToolLogger } from '@toolwright/core';
import type { UsedStateStore } from '../roundtrip/RequestStateCodec';
import type { Transport } from '../sdk/sdk';
import type { ChangeNotifier } from '../surface/Connections';
import type { AuthorizationServerMount } from '../auth/AuthorizationServerMount';

/** Instances that replace services for one connection's calls: `[[RealService, fake], ...]` or a Map. */
export type ServiceOverrides = ReadonlyMap<Class, unknown> | readonly (readonly [Class, unknown])[];

/** Who and what one MCP server serves. */
export interface ServerSetup {
  /** A 2025-era connection (the default) or 2026-07-28 requests. */
  era?: ProtocolEra;
  /** The caller of every request it serves, when no transport names one (stdio). */
  authInfo?: AuthInfo;
  /** Instances that replace services for this server's calls only (tests). */
  overrides?: ServiceOverrides;
  /**
   * The most bytes one request may hold on the transport this server serves. A 2026-07-28 round
   * whose `requestState` the client could not send back in one request (with what the retry
   * repeats: arguments, `_meta`) fails with JSON-RPC -32602 naming the limit and the largest
   * answers, instead of handing out a state the call could never finish with (see
   * `requestState.maxBytes`). Toolwright's transports set it: an HTTP endpoint (node listener or
   * fetch handler) its `maxBodyBytes`, stdio its line limit (16 MiB). Pass it when you serve the
   * app through another transport that limits requests. Default: no limit.
   */
  maxRequestBytes?: number;
}

/**
 * One MCP server wired to an app, for one connection (or one request): connect it to a
 * transport, close it when done; never share one between clients. Toolwright's own type, so
 * that no SDK class is part of Toolwright's API (the SDK is a peer within a version range).
 * At runtime it is the SDK's `Server` (`@modelcontextprotocol/server`), so where an SDK entry
 * takes a server factory, hand it over as one:
 * `createMcpHandler(({ era }) => app.createServer({ era }) as Server)`.
 */
export interface McpServerHandle {
  /** Serves `transport` (any SDK `Transport`): starts it and answers its messages. */
  connect(transport: Transport): Promise<void>;
  /** Stops serving: closes the transport it serves. */
  close(): Promise<void>;
}

/**
 * What a transport needs of an app: MCP servers wired to it, its access rules and change
 * notices, and a say in when its shutdown hooks run. An `App` is one.
 */
export interface ServerFactory {
  /** A new MCP server wired to the app, for one connection (or one request). Never share one. */
  createServer(setup?: ServerSetup): McpServerHandle;
  /** The access rules of the tool served under `name` now. */
  toolAccess(name: string): AccessRules | undefined;
  /**
   * The arguments of the tool served under `name` now that travel as `Mcp-Param-*` HTTP
   * headers too (`x-mcp-header`, SEP-2243): a 2026-07-28 HTTP `tools/call` whose headers
   * disagree with its body is refused with 400 and -32020 before the tool runs.
   */
  toolParamHeaders?(name: string): readonly ParamHeader[] | undefined;
  /**
   * Records the 2026-07-28 round states the app accepts in `store` from now on (a cluster's,
   * shared by every instance), unless the app's `requestState.usedStates` names its own.
   * `createHttpHandler` calls it with `cluster.usedStates`.
   */
  shareUsedStates?(store: UsedStateStore): void;
  /**
   * Whether an HTTP `tools/call` missing scopes gets 403 `insufficient_scope` naming them
   * (`createApp({ scopeHints: true })`); otherwise it is answered as for an unknown tool.
   */
  readonly scopeHints?: boolean;
  /** The authorization server served beside the endpoint (`createApp({ oauth })`): its paths first, its tokens by default. */
  readonly oauth?: AuthorizationServerMount;
  /**
   * The app's logger (`createApp({ logger })`): the transports write what failed there (a
   * malformed stdio message, an HTTP request that failed), and to stderr when it is undefined.
   */
  readonly logger?: ToolLogger;
  /** Tells `notifier` of every list change and resource update from now on; returns the function that stops it. */
  addNotifier(notifier: ChangeNotifier): () => void;
  /**
   * A listener starts serving the app. Returns what the listener calls once it has drained
   * and closed, with what is left of its drain timeout: the app's shutdown hooks run after the
   * last open listener's call, once the app's work still in flight (a task's run outlives its
   * request) has settled or `drainTimeoutMs` (10 s when not given) has passed, whichever comes first.
   */
  openListener(): ListenerRelease;
}

/** What a listener calls once it has drained and closed, with what is left of its drain timeout (see `ServerFactory.openListener`). */
export type ListenerRelease = (drainTimeoutMs?: number) => Promise<void>;
