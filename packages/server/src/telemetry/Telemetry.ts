import type { Histogram, MeterProvider, Tracer } from '@opentelemetry/api';
import { loadOpenTelemetry, type OpenTelemetryApi } from './loadOpenTelemetry';
import type { TelemetryOptions } from './TelemetryOptions';

const SCOPE = '@toolwright/server';
// The bucket boundaries the MCP semantic conventions advise for both durations, in seconds.
const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

/** What one connection's requests are traced and measured with. */
export interface TelemetryInstruments {
  readonly api: OpenTelemetryApi;
  /** Undefined when no tracer provider is registered (metrics only). */
  readonly tracer: Tracer | undefined;
  /** `mcp.server.operation.duration`; undefined when no meter provider is registered. */
  readonly operationDuration: Histogram | undefined;
  /** `mcp.server.session.duration`; undefined when no meter provider is registered. */
  readonly sessionDuration: Histogram | undefined;
  readonly recordArguments: boolean;
  readonly recordResults: boolean;
}

/**
 * An app's telemetry: asked once per connection whether there is anything to do. With the
 * API missing, or no provider registered, the answer is undefined and the connection runs
 * untouched (no wrapper on any handler).
 */
export class Telemetry {
  private meters: { provider: MeterProvider; operation: Histogram | undefined; session: Histogram | undefined } | undefined;

  constructor(
    private readonly options: TelemetryOptions = {},
    private readonly load: () => OpenTelemetryApi | undefined = loadOpenTelemetry,
  ) {}

  /** The instruments for a new connection, or undefined when nothing would record them. */
  instruments(): TelemetryInstruments | undefined {
    if (this.options.enabled === false) return undefined;
    const api = this.load();
    if (!api) return undefined;
    const tracer = registeredTracer(api);
    const { operation, session } = this.histograms(api);
    if (!tracer && !operation) return undefined;
    return {
      api,
      tracer,
      operationDuration: operation,
      sessionDuration: session,
      recordArguments: this.options.recordArguments === true,
      recordResults: this.options.recordResults === true,
    };
  }

  private histograms(api: OpenTelemetryApi): { operation: Histogram | undefined; session: Histogram | undefined } {
    const provider = api.metrics.getMeterProvider();
    if (this.meters?.provider !== provider) {
      const meter = provider.getMeter(SCOPE);
      // The global meter provider is the no-op one until the app sets one: its meter is the no-op meter.
      const live = meter !== api.createNoopMeter();
      const advice = { explicitBucketBoundaries: DURATION_BUCKETS };
      this.meters = {
        provider,
        operation: live
          ? meter.createHistogram('mcp.server.operation.duration', { unit: 's', description: 'MCP request duration as observed on the server, from receipt until the response is sent.', advice })
          : undefined,
        session: live ? meter.createHistogram('mcp.server.session.duration', { unit: 's', description: 'The duration of the MCP session as observed on the MCP server.', advice }) : undefined,
      };
    }
    return this.meters;
  }
}

/**
 * The tracer of the registered provider, or undefined while none is: the global provider
 * is a proxy whose delegate is unset until `trace.setGlobalTracerProvider` (or an SDK's
 * `register()`/`start()`) runs.
 */
function registeredTracer(api: OpenTelemetryApi): Tracer | undefined {
  const provider = api.trace.getTracerProvider() as ReturnType<OpenTelemetryApi['trace']['getTracerProvider']> & { getDelegateTracer?: (name: string) => Tracer | undefined };
  if (typeof provider.getDelegateTracer === 'function') return provider.getDelegateTracer(SCOPE);
  return provider.getTracer(SCOPE);
}
