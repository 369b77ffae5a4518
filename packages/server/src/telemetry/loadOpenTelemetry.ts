/** The OpenTelemetry API module, as this package uses it. */
export type OpenTelemetryApi = typeof import('@opentelemetry/api');

let loaded: OpenTelemetryApi | null | undefined;

// Where the API (major version 1) keeps what is registered. Absent until something registers a
// provider, a propagator or a context manager: then there is nothing to record, and the API is not even loaded.
const REGISTERED = Symbol.for('opentelemetry.js.api.1');

/**
 * `@opentelemetry/api`, loaded on first use; undefined when it is not installed (it is an
 * optional peer dependency) or nothing was registered with it yet. Loaded once per process, like `require` itself.
 */
export function loadOpenTelemetry(): OpenTelemetryApi | undefined {
  if (loaded === undefined) {
    if (!(REGISTERED in globalThis)) return undefined;
    try {
      loaded = require('@opentelemetry/api') as OpenTelemetryApi;
    } catch {
      loaded = null;
    }
  }
  return loaded ?? undefined;
}
