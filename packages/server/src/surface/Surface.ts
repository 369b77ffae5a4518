import { ConfigError } from '@toolwright/core';
import { buildRegistry, stderrLogger, type BuildOptions, type Class, type ContainerLike, type LogLevel, type Middleware, type ProtocolEra, type ToolLogger } from '@toolwright/core';
import type { Server, ServerCapabilities } from '../sdk/sdk';
import { compiledRegistry } from '@toolwright/core/internal';
import type { Registry } from '@toolwright/core';
import type { Connection } from '../pipeline/Connection';
import type { PendingCount } from '../ground/PendingCount';
import type { PipelineEnv } from '../pipeline/PipelineEnv';
import { createOpenCallContainer } from '../pipeline/openCallContainer';
import { ElicitationForms } from '../pipeline/ElicitationForms';
import { usesScopedServices } from '../pipeline/usesScopedServices';
import { DEFAULT_GUARD_TIMEOUT_MS } from '../pipeline/passesGuards';
import { DEFAULT_MAX_LOG_LENGTH } from '../pipeline/clientLogOf';
import { registerCompletionHandler } from '../handlers/registerCompletionHandler';
import { registerLoggingHandler } from '../handlers/registerLoggingHandler';
import { registerPromptHandlers } from '../handlers/registerPromptHandlers';
import { registerResourceHandlers } from '../handlers/registerResourceHandlers';
import { RequestStateCodec, type RequestStateOptions } from '../roundtrip/RequestStateCodec';
import { Catalog, type ListKind } from './Catalog';
import { Connections } from './Connections';
import { optionValueText } from '../ground/optionValueText';

export interface SurfaceOptions {
  /** Items per page of every list; undefined serves each list in one page. */
  readonly pageSize?: number;
  /** The log level of a connection until its client sends `logging/setLevel`. */
  readonly logLevel?: LogLevel;
  /** Changes within this many milliseconds make one `list_changed` notification. */
  readonly listChangedDebounceMs?: number;
  readonly toolTimeoutMs?: number;
  /** How long guards may take to decide for a member without a timeout, and at most for a list. Default `DEFAULT_GUARD_TIMEOUT_MS`. */
  readonly guardTimeoutMs?: number;
  /** The default timeout of resource reads and prompts (and of tools, unless `toolTimeoutMs` says otherwise). */
  readonly timeoutMs?: number;
  readonly logger?: ToolLogger;
  /** Builds guard and middleware classes, and members when no call scope is open. */
  readonly container: ContainerLike;
  /** The app's middleware, around every member's own. */
  readonly middleware?: readonly Middleware[];
  /** Counts the running calls of every kind. */
  readonly inFlight: PendingCount;

  /** Keys and lifetime of the signed `requestState` of 2026-07-28 round trips. */
  readonly requestState?: RequestStateOptions;
  /** The app's `serverInfo` name: the `requestState` it issues is bound to it (another app with the same keys refuses it). */
  readonly name: string;
  /** The longest URI matched against the resource templates. Default 2048. */
  readonly maxUriLength?: number;
  /** The longest line `ctx.log` sends, in characters. Default `DEFAULT_MAX_LOG_LENGTH`. */
  readonly maxLogLength?: number;
}

const DEFAULT_MAX_URI_LENGTH = 2048;

/**
 * Everything an app serves besides the tool handlers themselves: the catalog of tools,
 * resources and prompts (changeable at runtime), the live connections, the state the call
 * contexts share, and the handlers for resources, prompts, completions and logging.
 */
export class Surface {
  readonly catalog: Catalog;
  readonly connections: Connections;
  readonly env: PipelineEnv;

  constructor(registry: Registry, options: SurfaceOptions) {
    if (options.pageSize !== undefined && !(Number.isInteger(options.pageSize) && options.pageSize > 0)) {
      throw new ConfigError(
        `Toolwright: pageSize must be a positive integer (items per list page), got ${optionValueText(options.pageSize)}. Set e.g. pageSize: 100, or leave it out to list everything in one page.`,
      );
    }
    if (options.maxUriLength !== undefined && !(Number.isInteger(options.maxUriLength) && options.maxUriLength > 0)) {
      throw new ConfigError(`Toolwright: maxUriLength must be a positive integer (characters), got ${optionValueText(options.maxUriLength)}. The default is ${DEFAULT_MAX_URI_LENGTH}.`);
    }
    if (options.maxLogLength !== undefined && !(Number.isInteger(options.maxLogLength) && options.maxLogLength > 0)) {
      throw new ConfigError(`Toolwright: maxLogLength must be a positive integer (characters), got ${optionValueText(options.maxLogLength)}. The default is ${DEFAULT_MAX_LOG_LENGTH}.`);
    }
    const debounce = options.listChangedDebounceMs;
    if (debounce !== undefined && !(typeof debounce === 'number' && debounce >= 0 && debounce <= 2_147_483_647)) {
      throw new ConfigError(
        `Toolwright: listChangedDebounceMs must be a number of milliseconds from 0 to 2147483647 (a timer's longest delay), got ${optionValueText(debounce)}. Set e.g. listChangedDebounceMs: 50, or leave it out for the default 10.`,
      );
    }
    this.connections = new Connections(options.logLevel ?? 'info', options.listChangedDebounceMs ?? 10, (uri) => this.serves(uri));
    this.catalog = new Catalog(compiledRegistry(registry), options.pageSize, (kind: ListKind) => this.connections.listChanged(kind));
    this.env = {
      forms: new ElicitationForms(),
      logger: options.logger ?? stderrLogger('context'),
      toolTimeoutMs: options.toolTimeoutMs ?? options.timeoutMs,
      timeoutMs: options.timeoutMs,
      guardTimeoutMs: options.guardTimeoutMs ?? DEFAULT_GUARD_TIMEOUT_MS,
      requestState: new RequestStateCodec(options.requestState, options.name),
      container: options.container,
      middleware: Object.freeze([...(options.middleware ?? [])]),
      inFlight: options.inFlight,
      openContainer: createOpenCallContainer(options.container, options.logger ?? stderrLogger('services')),
      scopes: { active: usesScopedServices(registry, options.middleware ?? []) },
      maxUriLength: options.maxUriLength ?? DEFAULT_MAX_URI_LENGTH,
      maxLogLength: options.maxLogLength ?? DEFAULT_MAX_LOG_LENGTH,
    };
  }

  /** Whether a read of `uri` would find a resource now: an enabled resource, or an enabled template that makes it (within `maxUriLength`). */
  serves(uri: string): boolean {
    return this.catalog.resource(uri) !== undefined || (uri.length <= this.env.maxUriLength && this.catalog.matchTemplate(uri) !== undefined);
  }

  /** The capabilities a new connection declares: what the catalog serves now. */
  capabilities(): ServerCapabilities {
    const caps: ServerCapabilities = { tools: { listChanged: true }, logging: {} };
    if (this.catalog.hasResources) caps.resources = { subscribe: true, listChanged: true };
    if (this.catalog.hasPrompts) caps.prompts = { listChanged: true };
    if (this.catalog.hasCompletions) caps.completions = {};
    return caps;
  }

  /** Tracks a new server and installs the non-tool handlers its capabilities allow. */
  attach(server: Server, capabilities: ServerCapabilities, era: ProtocolEra, overrides?: ReadonlyMap<Class, unknown>, maxRequestBytes?: number): Connection {
    const connection = this.connections.open(server, era, overrides, maxRequestBytes);
    // 2026-07-28 has no logging/setLevel (the SDK answers it "Method not found" before any handler): a
    // per-request server registers nothing it cannot serve.
    if (era === 'legacy') registerLoggingHandler(connection);
    if (capabilities.resources) registerResourceHandlers(connection, this.catalog, this.env);
    if (capabilities.prompts) registerPromptHandlers(connection, this.catalog, this.env);
    if (capabilities.completions) registerCompletionHandler(connection, this.catalog, this.env);
    return connection;
  }

  /** Builds more classes with the app's build options and serves them from now on. */
  add(options: BuildOptions): void {
    const registry = buildRegistry(options);
    this.catalog.addRegistry(compiledRegistry(registry));
    if (usesScopedServices(registry, [])) this.env.scopes.active = true;
  }
}
