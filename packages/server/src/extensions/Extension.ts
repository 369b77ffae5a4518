import type { AuthInfo, Class, JsonSchema, ProtocolEra, RequestEnvelope, ToolDefinition, ToolLogger } from '@toolwright/core';
import type { ListControl } from '../surface/ListControl';

/**
 * A Standard Schema (https://standardschema.dev): zod 4, valibot, arktype and others are one.
 * Only its validating half is used here.
 */
export interface ParamsSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (
      value: unknown,
    ) => { readonly value: Output; readonly issues?: undefined } | { readonly issues: readonly { readonly message: string; readonly path?: readonly unknown[] }[] } | Promise<unknown>;
  };
}

/** What an extension's request and notification handlers know of the request they serve. */
export interface ExtensionContext {
  /** The extension this method belongs to. */
  readonly extension: string;
  /** The JSON-RPC method, as the client sent it. */
  readonly method: string;
  /** The JSON-RPC id of the request (undefined for a notification). */
  readonly requestId: string | number | undefined;
  /** 'legacy' (a 2025-era session or per-request 2025 HTTP) or 'modern' (2026-07-28). */
  readonly era: ProtocolEra;
  /** Protocol version, client capabilities and info, log level and trace context of this request. */
  readonly envelope: RequestEnvelope;
  /** The authenticated caller, when the transport has one. */
  readonly authInfo: AuthInfo | undefined;
  /** The 2025-era session (stateful HTTP); undefined elsewhere. */
  readonly sessionId: string | undefined;
  /** The HTTP request's headers, lower-cased (Streamable HTTP only). */
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** The request's `_meta` without the protocol's reserved keys (those are in `envelope`). */
  readonly meta: Readonly<Record<string, unknown>> | undefined;
  /** Aborted when the client cancels the request or the connection closes. */
  readonly signal: AbortSignal;
  /** The request's `inputResponses` (2026-07-28), which the SDK takes out of the params. */
  readonly inputResponses?: Readonly<Record<string, unknown>>;
  /** The keys of `inputResponses` the SDK left out of it: their values are not a bare result object (a string, an array, a `{ method, result }` wrapper). */
  readonly droppedInputResponseKeys?: readonly string[];
  /**
   * The settings the client declared for extension `id` (default: this one), or undefined
   * when it did not declare it: per session in the 2025 era, per request in 2026-07-28.
   */
  clientExtension(id?: string): Readonly<Record<string, unknown>> | undefined;
  /**
   * Sends a notification to the client, related to this request (over Streamable HTTP it
   * travels on the request's own response stream). A closed stream drops it silently.
   * Undefined in a notification handler (a notification has no answer to travel with).
   */
  readonly notify?: (method: string, params?: Record<string, unknown>) => Promise<void>;
  /**
   * Runs a tool call of this app as the client calling now would (access rules, guards,
   * middleware, validation, the tool's own rounds), with `override` changing how the run talks
   * to the world. Its answer is the `tools/call` result (or a 2026-07-28 `input_required`).
   * Undefined on a 2025-era connection and in a notification handler.
   */
  readonly callTool?: (params: { name: string; arguments?: Record<string, unknown> }, override?: ToolRunOverride) => Promise<Record<string, unknown>>;
}

/** What an extension changes about one run of a tool call (`aroundToolCall`'s `next`, `ctx.callTool`). */
export interface ToolRunOverride {
  /** Replaces the request's abort signal: the method's `ctx.signal`. */
  readonly signal?: AbortSignal;
  /**
   * The run counts in `app.inFlight` (and `app.drain()` waits for it) until this settles, not only
   * until the method answers: for an extension that stores what became of the run once the method
   * answered (the tasks extension, a task's outcome).
   */
  readonly settled?: Promise<unknown>;
  /** Receives what the method sends the client (`notifications/progress`, `notifications/message`) instead of the client. */
  readonly onNotify?: (notification: { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }) => void;
  /** The progress token the method's `ctx.progress` reports under (default: the request's). */
  readonly progressToken?: string | number;
  /** A 2026-07-28 round: the `requestState` and `inputResponses` the run reads instead of the request's. */
  readonly round?: {
    readonly requestState?: string;
    readonly inputResponses?: Readonly<Record<string, unknown>>;
    /**
     * Answers the extension kept itself (a task's, in its store): a question asked again gets its
     * answer back without a round. Each is checked as a client's answer would be.
     */
    readonly answers?: Readonly<Record<string, { readonly request: { readonly method: string; readonly params?: object }; readonly response: unknown }>>;
  };
}

/** What an extension's part of a 2026-07-28 `subscriptions/listen` stream knows and can do. */
export interface ExtensionListenContext {
  /** The extension serving this part. */
  readonly extension: string;
  /** The authenticated caller, when the transport has one. */
  readonly authInfo: AuthInfo | undefined;
  /** The settings the client declared for extension `id` (default: this one) on the listen request, or undefined. */
  clientExtension(id?: string): Readonly<Record<string, unknown>> | undefined;
  /** Sends a notification on the stream (after its acknowledgement, stamped with the subscription id). */
  notify(method: string, params: Record<string, unknown>): void;
}

/** An extension's part of `subscriptions/listen`: the filter keys it serves beside the protocol's own (`taskIds` of the tasks extension). */
export interface ExtensionListen {
  /** The keys of `params.notifications` it serves. */
  readonly keys: readonly string[];
  /**
   * Opens its part of one stream when the filter names one of its keys: resolves with what it
   * agreed to send (merged into `notifications/subscriptions/acknowledged`) and the means to
   * stop. Throw a `ProtocolError` to refuse the whole request.
   */
  open(filter: Readonly<Record<string, unknown>>, ctx: ExtensionListenContext): Promise<{ readonly honored: Readonly<Record<string, unknown>>; close(): void }>;
}

/** What an extension's `start` hook may change of the app while it runs. */
export interface ExtensionApp {
  /** Serves more decorated classes from now on (checked like the app's own). */
  add(...classes: Class[]): Promise<void>;
  /** Tools by name. */
  readonly tools: ListControl;
  /** Resources by URI, templates by their URI template. */
  readonly resources: ListControl;
  /** Prompts by name. */
  readonly prompts: ListControl;
  /** The app's logger (`createApp({ logger })`), for what the extension reports while it runs. */
  readonly logger: ToolLogger;
  /**
   * Runs a `tools/call` of this app outside any request, as `caller` (undefined: anonymous) on a
   * 2026-07-28 request whose `_meta` the params give (the client's declared capabilities under
   * `io.modelcontextprotocol/clientCapabilities`): the path a client's call takes (access rules,
   * guards, middleware, validation, the extensions' `aroundToolCall`), with no client to send
   * anything to. Resolves with the `tools/call` result; a JSON-RPC error rejects with its code.
   * For work a request started that another process finishes (a task worker). The run counts in
   * `app.inFlight` (once) from this call until its answer, so `app.drain()` and the shutdown wait for it.
   */
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }, caller: AuthInfo | undefined): Promise<Record<string, unknown>>;
}

/** Undoes what an extension's `start` set up; runs when the app stops. */
export type ExtensionStop = () => void | Promise<void>;

/** A `tools/call` as `aroundToolCall` sees it. */
export interface ToolCallRequest {
  readonly name: string;
  readonly arguments: Record<string, unknown> | undefined;
  /**
   * The tool the app serves under `name`; undefined when it serves none, or when it is a task tool
   * (`@Tool({ task })`) whose guards refuse this caller (`next()` then answers the error, the same).
   */
  readonly tool: ToolDefinition | undefined;
}

/**
 * One request method an extension adds (`skills/list`, `acme/search`). The SDK parses the
 * request, checks the era and dispatches it to `handle`; what `handle` returns is the
 * result. Throw a `ProtocolError` for a JSON-RPC error with a spec code; any other error is
 * answered `-32603 Internal error` (its message goes to the server log, never to the client).
 */
export interface ExtensionRequest<Params = Record<string, unknown>, Result extends object = Record<string, unknown>> {
  /**
   * The params' shape: a JSON Schema (checked with Toolwright's validator, so a bad request
   * gets -32602 naming each field) or a Standard Schema such as a zod object. Default: any
   * object. The protocol's `_meta` is removed before the check.
   */
  readonly params?: JsonSchema | ParamsSchema;
  /** Serves the request. */
  handle(params: Params, ctx: ExtensionContext): Result | Promise<Result>;
}

/** One notification method a client may send for an extension. */
export interface ExtensionNotification<Params = Record<string, unknown>> {
  readonly params?: JsonSchema | ParamsSchema;
  /** Handles the notification; an error goes to the server log (a notification has no answer). */
  handle(params: Params, ctx: ExtensionContext): void | Promise<void>;
}

/**
 * An MCP extension (SEP-2133) as an app serves it: its identifier and settings, advertised in
 * `capabilities.extensions` of `initialize` and `server/discover`; the methods and
 * notifications it adds; the classes (tools, resources, prompts) it brings along. Build one
 * with `defineExtension`, and serve it with `createApp({ extensions: [...] })`.
 */
export interface Extension {
  /** The identifier, `{vendor-prefix}/{name}` with a reverse-DNS prefix: `'com.acme/search'`, `'io.modelcontextprotocol/ui'`. */
  readonly id: string;
  /** The settings advertised under the identifier (a JSON object; default `{}`). */
  readonly settings?: Readonly<Record<string, unknown>>;
  /** The request methods it adds, by method name. Read as own keys only. */
  readonly requests?: Readonly<Record<string, ExtensionRequest<never, object>>>;
  /** The notifications from the client it handles, by method name. */
  readonly notifications?: Readonly<Record<string, ExtensionNotification<never>>>;
  /** Decorated classes served with the app's own (tools, resources and prompts the extension brings). */
  readonly classes?: readonly Class[];
  /**
   * Whether its methods are served only to clients that declared the extension (per session
   * in the 2025 era, per request in 2026-07-28). Others get JSON-RPC error -32021 naming the
   * missing `extensions` capability. Default false: any client may call them.
   */
  readonly requireClientDeclaration?: boolean;
  /**
   * Runs once in `createApp`, before the app is built (load files, check configuration).
   * Throwing stops `createApp` with the error (a `BuildError` or `ConfigError` names what to fix).
   * May return more classes to serve.
   */
  prepare?(): void | readonly Class[] | Promise<void | readonly Class[]>;
  /**
   * Runs when the app starts (`app.start()`, which `listen` calls), with what the extension may
   * change while the app runs: serve more classes, remove or hide members (each change sends its
   * `list_changed`). What it returns runs when the app stops (close a file watcher, say).
   */
  start?(app: ExtensionApp): void | ExtensionStop | Promise<void | ExtensionStop>;
  /**
   * Wraps the app's `tools/call` on 2026-07-28 requests: `next(override?)` runs the call
   * through the pipeline and gives its result; what this returns is the answer. With several
   * extensions, the first listed is outermost. Throw a `ProtocolError` for a JSON-RPC error.
   */
  aroundToolCall?(call: ToolCallRequest, ctx: ExtensionContext, next: (override?: ToolRunOverride) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** Serves filter keys of its own on 2026-07-28 `subscriptions/listen` streams, over HTTP and stdio (the tasks extension's `taskIds`). */
  readonly listen?: ExtensionListen;
}
