import type { EndpointOptions, EndpointSessionOptions } from '../http/EndpointOptions';

/** Session limits of a stateful fetch handler (2025-11-25 sessions): the node listener's, counted by `Request`. */
export type FetchSessionOptions = EndpointSessionOptions<Request>;

/**
 * How the web-standard fetch handler serves an app (`createFetchHandler`): the endpoint options
 * it shares with the node listener (`EndpointOptions`), over `Request` and `Response`, and what
 * only it has.
 */
export interface FetchHandlerOptions extends EndpointOptions<Request> {
  /** Where the reasons of refused and failed requests go (never to the client). Default: `console.error`. */
  logError?: (message: string) => void;
}
