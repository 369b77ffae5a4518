import { PROTOCOL_VERSION_META_KEY, Server, TRACEPARENT_META_KEY, TRACESTATE_META_KEY, BAGGAGE_META_KEY, type JSONRPCRequest, type Result, type ServerContext } from '../sdk/sdk';
import type { TelemetryInstruments } from '../telemetry/Telemetry';
import { traceRequest, type TracedRequest } from '../telemetry/traceRequest';
import type { Connection } from '../pipeline/Connection';
import { requestHeadersOf } from '../sdk/requestHeaders';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's base must be a constructor of any[] (TS2545)
type ServerClass = new (...args: any[]) => Server;
type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/** A server made by `tracedServerClass`, and what `startTracing` gives it. */
interface Traced {
  tracing?: { readonly instruments: TelemetryInstruments; readonly connection: Connection; readonly serves: ServedNames; transport?: 'tcp' | 'pipe' };
}

/** Whether the app serves a tool or prompt of this name (what telemetry may record of a request's own names). */
export type ServedNames = (kind: 'tool' | 'prompt', name: string) => boolean;

const classes = new WeakMap<ServerClass, ServerClass>();

/**
 * `Base` with every request handler traced: the SDK's handler seam (`_wrapHandler`, which
 * every `setRequestHandler` goes through, the SDK's own `initialize` and `ping` included)
 * and the fallback handler (the 2025-era `tools/call` path). Only used for connections
 * that have telemetry to record, so other connections pay nothing.
 */
export function tracedServerClass<T extends ServerClass>(Base: T): T {
  let traced = classes.get(Base);
  if (!traced) {
    traced = class TracedServer extends Base implements Traced {
      tracing?: Traced['tracing'];
      private readonly openedAt = performance.now();

      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a mixin's constructor takes any[] (TS2545)
      constructor(...args: any[]) {
        super(...args);
        // The fallback handler is a plain field: traced as it is set.
        let fallback: Handler | undefined = (this as unknown as { fallbackRequestHandler?: Handler }).fallbackRequestHandler;
        Object.defineProperty(this, 'fallbackRequestHandler', {
          configurable: true,
          enumerable: true,
          get: () => fallback,
          set: (handler: Handler | undefined) => {
            // The fallback serves the 2025-era tools/call; any other method reaching it is one the server does not have.
            fallback = handler && this.traced(handler, (method) => method === 'tools/call');
          },
        });
      }

      protected override _wrapHandler(method: string, handler: Handler): Handler {
        // A handler set for this method: the app serves it.
        return this.traced(super._wrapHandler(method, handler), (requested) => requested === method);
      }

      protected override _onclose(): void {
        super._onclose();
        const tracing = this.tracing;
        if (!tracing?.instruments.sessionDuration || tracing.connection.era !== 'legacy') return;
        const version = this.getNegotiatedProtocolVersion();
        tracing.instruments.sessionDuration.record((performance.now() - this.openedAt) / 1000, {
          ...(version !== undefined && { 'mcp.protocol.version': version }),
          'network.transport': tracing.transport ?? 'pipe',
        });
      }

      private traced(handler: Handler, servesMethod: (method: string) => boolean): Handler {
        return (request, ctx) => {
          const tracing = this.tracing;
          if (!tracing) return handler(request, ctx);
          const serves: TracedRequest['serves'] = (kind, name) => (kind === 'method' ? servesMethod(name) : tracing.serves(kind, name));
          const described = describe(this, tracing.connection, request, ctx, serves);
          tracing.transport = described.headers ? 'tcp' : 'pipe';
          return traceRequest(tracing.instruments, described, () => handler(request, ctx));
        };
      }
    } as unknown as ServerClass;
    classes.set(Base, traced);
  }
  return traced as T;
}

/** Starts tracing a server made by `tracedServerClass`, once the connection it serves is known. */
export function startTracing(server: Server, instruments: TelemetryInstruments, connection: Connection, serves: ServedNames): void {
  (server as Server & Traced).tracing = { instruments, connection, serves };
}

function describe(server: Server, connection: Connection, request: JSONRPCRequest, ctx: ServerContext, serves: TracedRequest['serves']): TracedRequest {
  const meta = ctx.mcpReq._meta as Record<string, unknown> | undefined;
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const version = connection.era === 'modern' ? envelope?.[PROTOCOL_VERSION_META_KEY] : server.getNegotiatedProtocolVersion();
  return {
    method: request.method,
    id: request.id,
    params: request.params,
    sessionId: ctx.sessionId,
    protocolVersion: typeof version === 'string' ? version : undefined,
    meta: {
      ...stringAt(meta, TRACEPARENT_META_KEY, 'traceparent'),
      ...stringAt(meta, TRACESTATE_META_KEY, 'tracestate'),
      ...stringAt(meta, BAGGAGE_META_KEY, 'baggage'),
    },
    headers: requestHeadersOf(server.transport, ctx),
    serves,
    signal: ctx.mcpReq.signal,
  };
}

function stringAt<K extends string>(meta: Record<string, unknown> | undefined, key: string, as: K): { [k in K]?: string } {
  const value = meta?.[key];
  return typeof value === 'string' ? ({ [as]: value } as { [k in K]: string }) : {};
}
