/**
 * OpenTelemetry for an app (`AppOptions.telemetry`). Spans and metrics are made only when
 * `@opentelemetry/api` is installed and the process registered a tracer provider (or a
 * meter provider); otherwise nothing is done per request. See the Observability guide.
 */
export interface TelemetryOptions {
  /** `false` turns telemetry off even when a provider is registered. Default true. */
  readonly enabled?: boolean;
  /**
   * Record each tool call's arguments on its span (`gen_ai.tool.call.arguments`, as JSON).
   * Off by default: arguments may hold personal or secret data.
   */
  readonly recordArguments?: boolean;
  /** Record each tool call's result on its span (`gen_ai.tool.call.result`, as JSON). Off by default, for the same reason. */
  readonly recordResults?: boolean;
}
