import type { EndpointOptions, EndpointSessionOptions } from '../http/EndpointOptions';

/** Session limits of a stateful fetch handler (2025-11-25 sessions): the node listener's, counted by `Request`. */
export type FetchSessionOptions = EndpointSessionOptions<Request>;

/**
 * How the web-standard fetch handler serves an app (`createFetchHandler`): the endpoint options
 * it shares with the node listener (`EndpointOptions`), over `Request` and `Response`, and what
 * only it has.
 */
export interface FetchHandlerOptions extends EndpointOptions<Request> {
  /**
   * Where the reasons of refused and failed requests go (never to the client). Default: the
   * app's `logger` (`createApp({ logger })`, its `error`), or `console.error` when it has none, at
   * most 5 lines of a kind every 10 s and then a line with how many were left out.
   */
  logError?: (message: string) => void;
}
