import { ConfigError, clientExtension, type AuthInfo, type Class, type ToolLogger } from '@toolwright/core';
import { jsonProblem } from '@toolwright/core/internal';
import { callerOf } from '../auth/canAccess';
import type { Connection, ToolCallParams } from '../pipeline/Connection';
import { requestEnvelopeOf } from '../pipeline/requestEnvelope';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { requestHeadersOf } from '../sdk/requestHeaders';
import type { Notification, ServerCapabilities, ServerContext, StandardSchemaV1 } from '../sdk/sdk';
import { describe } from './defineExtension';
import { knownAnswers } from '../roundtrip/InputRound';
import { KNOWN_ANSWERS } from '../roundtrip/knownAnswersKey';
import { detachedCall, type DetachedCallParams, type DetachedServers } from './detachedCall';
import type { Extension, ExtensionApp, ExtensionContext, ExtensionNotification, ExtensionRequest, ExtensionStop, ToolRunOverride } from './Extension';
import { extensionProblems } from './extensionProblems';
import type { InFlight } from '../pipeline/InFlight';
import { listenOpenerFor, recordListenOpener, type ListenOpener } from './ListenOpener';
import { paramsSchemaOf } from './paramsSchemaOf';
import { sentAsIs } from './sentAsIs';

interface ServedMethod<H> {
  readonly extension: Extension;
  readonly entry: H;
  readonly schema: StandardSchemaV1;
}

/**
 * The extensions one app serves, checked together once: what `capabilities.extensions`
 * advertises, and the request and notification handlers each connection's SDK `Server` gets.
 * Every method is registered with the SDK, which parses the message, checks its era and
 * dispatches it: nothing here answers a request the SDK would not dispatch.
 */
export class ServedExtensions {
  private readonly requests = new Map<string, ServedMethod<ExtensionRequest<never, object>>>();
  private readonly notifications = new Map<string, ServedMethod<ExtensionNotification<never>>>();
  private readonly advertised: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  private readonly listenOpener: ListenOpener | undefined;
  private readonly stops: ExtensionStop[] = [];
  /**
   * While `createServer` makes the server of a run outside any request (see `start`): what ends
   * the run's count before its call's own. `attach` gives it to that server's connection.
   */
  private handOver: (() => void) | undefined;

  constructor(
    readonly extensions: readonly Extension[],
    private readonly logger: ToolLogger,
  ) {
    if (!Array.isArray(extensions)) throw new ConfigError('Toolwright: `extensions` must be an array of extensions: `extensions: [apps(), myExtension]`.');
    const problems: string[] = [];
    const ids = new Set<string>();
    for (const extension of extensions) {
      const own = extensionProblems(extension);
      if (own.length > 0) {
        problems.push(...own.map((p) => `extension ${describe(extension)}: ${p}`));
        continue;
      }
      if (ids.has(extension.id)) problems.push(`extension '${extension.id}' is served twice: list it once.`);
      ids.add(extension.id);
      this.collect(extension, 'requests', this.requests, problems);
      this.collect(extension, 'notifications', this.notifications, problems);
    }
    if (problems.length > 0) throw new ConfigError(`Toolwright: the app's extensions cannot be served:\n${problems.map((p) => `- ${p}`).join('\n')}`);
    const advertised: Record<string, Readonly<Record<string, unknown>>> = Object.create(null) as Record<string, Readonly<Record<string, unknown>>>;
    for (const e of extensions) Object.defineProperty(advertised, e.id, { value: structuredClone(e.settings ?? {}), enumerable: true });
    this.advertised = extensions.length > 0 ? Object.freeze({ ...advertised }) : undefined;
    this.listenOpener = listenOpenerFor(extensions, this.logger);
  }

  /** `capabilities` with `extensions` (each identifier with its settings) added; as given when the app serves none. */
  withCapabilities(capabilities: ServerCapabilities): ServerCapabilities {
    // The settings were checked to be JSON when the extension was defined.
    return this.advertised ? { ...capabilities, extensions: this.advertised as ServerCapabilities['extensions'] } : capabilities;
  }

  /** Runs every extension's `prepare()`, in order; returns the classes they bring (theirs and those `prepare` returned). */
  async prepare(): Promise<Class[]> {
    const classes: Class[] = [];
    for (const extension of this.extensions) {
      classes.push(...(extension.classes ?? []));
      const more = await extension.prepare?.();
      if (more) classes.push(...more);
    }
    return classes;
  }

  /**
   * Runs every extension's `start` with the app, in order, keeping what each returns to stop it.
   * A run its `callTool` starts counts in `inFlight` from the moment it is asked for: while the
   * app's server for it connects, and the SDK dispatches its request, nothing else counts it
   * yet, and a drain would find the app idle. That count hands over to the call's own once the
   * call is served (see `attach`), or ends with the run's answer, so the run counts once.
   */
  async start(app: Omit<ExtensionApp, 'logger' | 'callTool'> & { createServer: DetachedServers; inFlight: InFlight }): Promise<void> {
    const callTool = (params: DetachedCallParams, caller: AuthInfo | undefined): Promise<Record<string, unknown>> => {
      let handOver: () => void = () => undefined;
      void app.inFlight.track(new Promise<void>((resolve) => (handOver = resolve)));
      const servers: DetachedServers = (setup) => {
        this.handOver = handOver;
        try {
          return app.createServer(setup);
        } finally {
          this.handOver = undefined;
        }
      };
      let answer: Promise<Record<string, unknown>>;
      try {
        answer = detachedCall(servers, params, caller);
      } catch (error) {
        answer = Promise.reject(error as Error);
      }
      answer.then(handOver, handOver);
      return answer;
    };
    const live: ExtensionApp = Object.freeze({
      add: (...classes: Class[]) => app.add(...classes),
      tools: app.tools,
      resources: app.resources,
      prompts: app.prompts,
      logger: this.logger,
      callTool,
    });
    for (const extension of this.extensions) {
      const stop = await extension.start?.(live);
      if (typeof stop === 'function') this.stops.push(stop);
    }
  }

  /** Undoes the extensions' `start`, last started first; a failure is logged and the others still stop. */
  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) {
      try {
        await stop();
      } catch (error) {
        this.logger.error('an extension failed to stop', { error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** Registers the extensions' methods and notifications on one connection's SDK `Server`. */
  attach(connection: Connection): void {
    const { server } = connection;
    if (this.listenOpener && connection.era === 'modern') recordListenOpener(server, this.listenOpener);
    for (const [method, served] of this.requests) {
      server.setRequestHandler(method, { params: served.schema }, (params, ctx) => this.serve(method, served, params, ctx, connection));
    }
    for (const [method, served] of this.notifications) {
      server.setNotificationHandler(method, { params: served.schema }, (params, notification) => this.hear(method, served, params, notification, connection));
    }
    const wrapping = this.extensions.filter((e) => e.aroundToolCall);
    // The server of a run outside any request: its call's count takes over the run's as it begins,
    // before the extensions (and a guarded task tool's guards) see the call, so the run counts once.
    const handOver = this.handOver;
    if (handOver) connection.callCounted = handOver;
    if (wrapping.length > 0 || handOver) {
      connection.aroundToolCall = (params, tool, sdk, next) => {
        // `settled`: what the overrides so far said the run counts in flight until, besides its answer.
        const layer = (i: number, current: ServerContext, settled: readonly Promise<unknown>[]): Promise<Record<string, unknown>> => {
          if (i === wrapping.length) return next(current, settled);
          const extension = wrapping[i]!;
          const call = { name: params.name, arguments: params.arguments, tool };
          const around = async () =>
            extension.aroundToolCall!(call, contextOf(extension, 'tools/call', current, connection), (override) =>
              layer(i + 1, overridden(current, override), override?.settled ? [...settled, override.settled] : settled),
            );
          // As for its methods: only a JSON-RPC error reaches the client (a database driver's error may name its host).
          return around().catch((error: unknown) => {
            throw this.answerable(extension, 'tools/call', error);
          });
        };
        return layer(0, sdk, []);
      };
    }
  }

  private collect<H extends { readonly params?: object }>(extension: Extension, kind: 'requests' | 'notifications', into: Map<string, ServedMethod<H>>, problems: string[]): void {
    const methods = extension[kind] as Readonly<Record<string, H>> | undefined;
    if (!methods) return;
    for (const [method, entry] of Object.entries(methods)) {
      const other = into.get(method);
      if (other) {
        problems.push(`${kind} method '${method}' of '${extension.id}' is also one of '${other.extension.id}': each method belongs to one extension.`);
        continue;
      }
      try {
        into.set(method, { extension, entry, schema: paramsSchemaOf(method, entry.params as never) });
      } catch (error) {
        problems.push(`${kind}['${method}'] of '${extension.id}': its params schema cannot be compiled: ${(error as Error).message}`);
      }
    }
  }

  private async serve(method: string, served: ServedMethod<ExtensionRequest<never, object>>, params: unknown, sdk: ServerContext, connection: Connection): Promise<Record<string, unknown>> {
    const ctx = contextOf(served.extension, method, sdk, connection);
    if (served.extension.requireClientDeclaration && !ctx.clientExtension()) {
      throw new ProtocolError(
        ErrorCodes.MissingClientCapability,
        `'${method}' belongs to extension '${served.extension.id}', which the client did not declare. Declare it in capabilities.extensions to use it.`,
        { requiredCapabilities: { extensions: { [served.extension.id]: {} } } },
      );
    }
    try {
      const result = await served.entry.handle(params as never, ctx);
      if (typeof result !== 'object' || result === null || Array.isArray(result)) {
        this.logger.error(`extension '${served.extension.id}': '${method}' returned ${Array.isArray(result) ? 'an array' : String(result)}, not a result object; the client got -32603`);
        throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
      }
      // Left to the transport's JSON.stringify, such a result would leave the request unanswered.
      const problem = jsonProblem(result, 'result');
      if (problem) {
        this.logger.error(`extension '${served.extension.id}': '${method}' returned a result that cannot be sent as JSON: ${problem} The client got -32603`);
        throw new ProtocolError(ErrorCodes.InternalError, 'Internal error');
      }
      return result as Record<string, unknown>;
    } catch (error) {
      throw this.answerable(served.extension, method, error);
    }
  }

  private async hear(method: string, served: ServedMethod<ExtensionNotification<never>>, params: unknown, notification: Notification, connection: Connection): Promise<void> {
    try {
      await served.entry.handle(params as never, notificationContextOf(served.extension, method, notification, connection));
    } catch (error) {
      this.logger.error(`extension '${served.extension.id}': the handler of notification '${method}' threw`, error);
    }
  }

  /** A JSON-RPC error passes as is (`sentAsIs`); anything else is logged and answered -32603 without its message. */
  private answerable(extension: Extension, method: string, error: unknown): Error {
    if (sentAsIs(error)) return error;
    this.logger.error(`extension '${extension.id}': '${method}' threw; the client got -32603`, error);
    return new ProtocolError(ErrorCodes.InternalError, 'Internal error');
  }
}

function contextOf(extension: Extension, method: string, sdk: ServerContext, connection: Connection): ExtensionContext {
  const envelope = requestEnvelopeOf(sdk, connection);
  return {
    extension: extension.id,
    method,
    requestId: sdk.mcpReq.id,
    era: connection.era,
    envelope,
    authInfo: callerOf(sdk),
    sessionId: sdk.sessionId,
    headers: requestHeadersOf(connection.server.transport, sdk),
    meta: sdk.mcpReq._meta,
    signal: sdk.mcpReq.signal,
    ...(sdk.mcpReq.inputResponses && { inputResponses: sdk.mcpReq.inputResponses as Readonly<Record<string, unknown>> }),
    ...(sdk.mcpReq.droppedInputResponseKeys && { droppedInputResponseKeys: sdk.mcpReq.droppedInputResponseKeys }),
    clientExtension: (id = extension.id) => clientExtension(envelope, id),
    notify: (notifyMethod, params) => sdk.mcpReq.notify({ method: notifyMethod, ...(params && { params }) }).catch(() => undefined),
    ...(connection.callTool && { callTool: (params: ToolCallParams, override?: ToolRunOverride) => connection.callTool!(params, overridden(sdk, override), override?.settled) }),
  };
}

/** The SDK's handler context of a request, with what an extension changes for one tool run. */
function overridden(sdk: ServerContext, override: ToolRunOverride | undefined): ServerContext {
  if (!override) return sdk;
  const { signal, onNotify, progressToken, round } = override;
  const { mcpReq } = sdk;
  return {
    ...sdk,
    mcpReq: {
      ...mcpReq,
      ...(signal && { signal }),
      ...(onNotify && { notify: (notification: Notification) => Promise.resolve(onNotify(notification as Parameters<typeof onNotify>[0])) }),
      ...(progressToken !== undefined && { _meta: { ...mcpReq._meta, progressToken } }),
      ...(round && { requestState: () => round.requestState, inputResponses: round.inputResponses }),
      ...(round?.answers && { [KNOWN_ANSWERS]: knownAnswers(round.answers as Parameters<typeof knownAnswers>[0]) }),
    },
  } as ServerContext;
}

/** A notification's context: the session's view of the client (2025 era), or what the notification's `_meta` says (2026-07-28). */
function notificationContextOf(extension: Extension, method: string, notification: Notification, connection: Connection): ExtensionContext {
  const meta = notification.params?._meta as Record<string, unknown> | undefined;
  const signal = new AbortController().signal;
  const envelope = requestEnvelopeOf({ mcpReq: { _meta: meta, envelope: undefined }, http: undefined } as unknown as ServerContext, connection);
  return {
    extension: extension.id,
    method,
    requestId: undefined,
    era: connection.era,
    envelope,
    authInfo: undefined,
    sessionId: connection.server.transport?.sessionId,
    headers: undefined,
    meta,
    signal,
    clientExtension: (id = extension.id) => clientExtension(envelope, id),
  };
}
