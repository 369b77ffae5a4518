import type { EndpointOptions } from './EndpointOptions';
import type { HttpHandlerOptions } from './HttpHandlerOptions';
import type { HttpListenOptions } from './HttpListenOptions';

/** Every option the node listener and the fetch handler share: the compiler fails here when `EndpointOptions` gains or loses one. */
const ENDPOINT = {
  path: true,
  stateless: true,
  jsonResponse: true,
  sessions: true,
  allowedOrigins: true,
  allowedHosts: true,
  maxBodyBytes: true,
  maxBufferedBytes: true,
  maxUrlLength: true,
  timeouts: true,
  cors: true,
  auth: true,
  eventStore: true,
  cluster: true,
  sseRetryMs: true,
  health: true,
} as const satisfies Record<keyof EndpointOptions<unknown>, true>;

/** `createHttpHandler`'s own options, beside the endpoint's. */
const HTTP_HANDLER = {
  eventStoreLimits: true,
  httpTransport: true,
  legacySse: true,
  requestLogLevel: true,
  logLevel: true,
  logWrite: true,
} as const satisfies Record<Exclude<keyof HttpHandlerOptions, keyof EndpointOptions<unknown>>, true>;

/** The node listener's own options of `app.listen({ transport: 'http' })`, beside `createHttpHandler`'s. */
const HTTP_LISTENER = {
  transport: true,
  port: true,
  host: true,
  drainTimeoutMs: true,
  maxConnections: true,
  exitOnSignal: true,
} as const satisfies Record<Exclude<keyof HttpListenOptions, keyof HttpHandlerOptions>, true>;

/** The names of the endpoint's options (the node listener's and the fetch handler's), for the checks that refuse an unknown one. */
export const ENDPOINT_OPTION_NAMES: readonly string[] = Object.keys(ENDPOINT);
/** The names of `createHttpHandler`'s options. */
export const HTTP_HANDLER_OPTION_NAMES: readonly string[] = [...ENDPOINT_OPTION_NAMES, ...Object.keys(HTTP_HANDLER)];
/** The names of the options of `app.listen({ transport: 'http' })`. */
export const HTTP_LISTENER_OPTION_NAMES: readonly string[] = [...Object.keys(HTTP_LISTENER), ...HTTP_HANDLER_OPTION_NAMES];
