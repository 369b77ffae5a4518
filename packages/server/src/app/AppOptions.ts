import type { CacheHint, Class, ContainerLike, Icon, LogLevel, Middleware, ToolLogger } from '@toolwright/core';
import type { RequestStateOptions } from '../roundtrip/RequestStateCodec';
import type { TelemetryOptions } from '../telemetry/TelemetryOptions';
import type { Extension } from '../extensions/Extension';
import type { Mount } from '../compose/Mount';
import type { AuthorizationServerMount } from '../auth/AuthorizationServerMount';

export interface AppOptions {
  /** The server's programmatic name, sent in `serverInfo`. The `requestState` of 2026-07-28 round trips is bound to it (see `requestState`). */
  name: string;
  version: string;
  /** A display name for UIs. */
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: Icon[];
  /** Guidance for the model on how to use this server, sent once at initialize. */
  instructions?: string;
  /**
   * The tool classes, and/or glob patterns of compiled modules to load them from
   * (`'dist/tools/*.js'`, resolved against `cwd`). Modules are loaded with dynamic `import()`,
   * so CommonJS and ESM both work; every exported class with `@Tool` methods is served.
   */
  tools: readonly (Class | string)[];
  /**
   * Other apps served inside this one, each under a namespace: their tools and prompts as
   * `<namespace>_<name>`, their resources and templates under their own URIs, their
   * middleware, guards, scopes, timeouts, `guardTimeoutMs`, `maxLogLength` and `maxUriLength`
   * kept (inside this app's middleware; this app's options where they set none), their list
   * changes passed on live. A name or URI served twice is a `BuildError` naming both members.
   * See the Composition guide.
   */
  mount?: readonly Mount[];
  /**
   * MCP extensions the app serves (SEP-2133): each is advertised in `capabilities.extensions`
   * (`initialize` and `server/discover`), its methods are served through the SDK, and the
   * classes it brings are served with `tools`. Make one with `defineExtension`; see the
   * Extensions guide.
   */
  extensions?: readonly Extension[];
  /**
   * More classes whose `@OnStart()` / `@OnShutdown()` methods run with the app (a database
   * pool, a cache), besides the tool classes' own. Built by the container.
   */
  services?: readonly Class[];
  /** Runs before the first request is served (`listen` awaits it); throwing stops startup with the message. */
  onStart?: () => unknown;
  /** Runs once the listener has drained its calls on shutdown, after the `@OnShutdown()` methods. */
  onShutdown?: () => unknown;
  /** Builds tool classes and their dependencies. Default: typedi's `Container`. */
  container?: ContainerLike;
  /** Convert string arguments to numbers/booleans where the schema wants them. Default false. */
  coerce?: boolean;
  /** Base directory for glob patterns. Default: `process.cwd()`. */
  cwd?: string;
  /** Where the framework logs. Default: stderr. */
  logger?: ToolLogger;
  /** Items per page of `tools/list`, `resources/list`, `resources/templates/list` and `prompts/list`. Default: everything in one page. */
  pageSize?: number;
  /** The lowest level of `ctx.log` sent to a client until it sends `logging/setLevel`. Default 'info'. */
  logLevel?: LogLevel;
  /** Runtime list changes within this many milliseconds make one `list_changed` notification. Default 10. */
  listChangedDebounceMs?: number;
  /**
   * Cache hints on 2026-07-28 results (`ttlMs`, `cacheScope`); 2025-era results carry none.
   * `lists` applies to every list unless `tools`, `prompts`, `resources` or
   * `resourceTemplates` says otherwise; `reads` to `resources/read` unless the resource's
   * `@Resource({ cache })` does. Defaults: lists and `server/discover` 60 s private (clients
   * listening with `subscriptions/listen` hear of changes at once), reads 0 (always fresh).
   */
  cache?: {
    lists?: CacheHint;
    tools?: CacheHint;
    prompts?: CacheHint;
    resources?: CacheHint;
    resourceTemplates?: CacheHint;
    reads?: CacheHint;
    discover?: CacheHint;
  };
  /**
   * Code around every call of a tool, resource read and prompt get, outermost first; the
   * members' own `@UseMiddleware` run inside these. A middleware is `(call, next) => result`
   * or a class with `use(call, next)` that the container builds. See the Middleware guide.
   */
  middleware?: readonly Middleware[];
  /**
   * Fail any call (tool, resource read, prompt) after this many milliseconds: a tool gets an
   * `isError` result, a read or prompt a JSON-RPC error; `ctx.signal` is aborted. `toolTimeoutMs`
   * and `@Tool({ timeoutMs })` override it for tools. Default: none.
   */
  timeoutMs?: number;
  /** Fail any tool call after this many milliseconds (an `isError` result; `ctx.signal` is aborted). `@Tool({ timeoutMs })` overrides it. Default: none. */
  toolTimeoutMs?: number;
  /**
   * How long a member's guards may take to decide, in milliseconds, when the member has no
   * timeout (`@Tool({ timeoutMs })`, `toolTimeoutMs`, `timeoutMs`), and at most for a list, a
   * completion or a subscription. A guard that has not decided by then refuses (the caller
   * gets the answer for an unknown member; the log names the guard). A mounted app's members
   * keep their app's, when it sets one. Default 10,000 (well inside the 60 s an SDK client waits).
   */
  guardTimeoutMs?: number;
  /**
   * How the `requestState` of 2026-07-28 round trips is signed (`ctx.elicit`, `ctx.sample`,
   * `ctx.listRoots` on a 2026-07-28 request end the round with `input_required`; the client
   * echoes the state with its answers). Default: a random key per process, which suits stdio
   * and a single HTTP instance; give every instance behind a load balancer the same `keys`.
   * A state is bound to this app's `name`: another app given the same keys refuses it (JSON-RPC
   * -32602, as a modified state), whatever its tools; the instances of this app accept each
   * other's states across versions, so a rolling deploy keeps its rounds.
   */
  requestState?: RequestStateOptions;
  /** OpenTelemetry spans and metrics, when `@opentelemetry/api` is installed and a provider registered (see the Observability guide). */
  telemetry?: TelemetryOptions;
  /**
   * Whether the server may answer some requests without the SDK's per-message work, with the
   * SDK's answers byte for byte (today: a 2025-11-25 connection's plain `tools/call`). Default:
   * on, unless the `TOOLWRIGHT_FAST_PATHS` environment variable is `off`. Off, every message
   * goes the SDK's way. See the Internals page.
   */
  fastPaths?: boolean;
  /**
   * The longest URI `resources/read` and `resources/subscribe` match against the resource
   * templates, in characters; a longer one (that is no static resource's URI) gets JSON-RPC
   * error -32602 before any template runs. Default 2048.
   */
  maxUriLength?: number;
  /**
   * The longest line `ctx.log` sends a client, in characters of its message and data JSON; a
   * longer one goes cut, without its data, with a note saying so (and a warning on the server's
   * log). A `ctx.progress` message is cut to it too. Default 65,536.
   */
  maxLogLength?: number;
  /**
   * Step-up authorization: over HTTP with `auth`, answer a `tools/call` of a tool whose
   * `@RequireScopes` the caller's token lacks with 403 and `WWW-Authenticate: Bearer
   * error="insufficient_scope", scope="..."` (401 for an anonymous caller), naming the scopes
   * to request, as the MCP authorization spec describes. Default false: a member the caller
   * may not use (its scopes, roles or guards) is answered exactly as one that does not exist,
   * on every transport, so no caller can list what is hidden from it by probing names.
   */
  scopeHints?: boolean;
  /**
   * An OAuth authorization server to serve beside the MCP endpoint (`createOAuthServer` from
   * `@toolwright/oauth`): `app.listen`, `app.fetch`, `createHttpHandler`, `createFetchHandler`
   * and the adapters answer its paths, and the endpoint takes its tokens unless given `auth`.
   */
  oauth?: AuthorizationServerMount;
}
