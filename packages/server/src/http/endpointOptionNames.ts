import type { EndpointOptions } from './EndpointOptions';

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

/** The names of the endpoint's options, for the checks that refuse an unknown one. */
export const ENDPOINT_OPTION_NAMES: readonly string[] = Object.keys(ENDPOINT);
