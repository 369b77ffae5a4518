/** @toolwright/server/fetch — serve an app as a web-standard `(request: Request) => Promise<Response>` handler (Deno, Bun, Workers). */
export { createFetchHandler } from './createFetchHandler';
export type { FetchHandler } from './createFetchHandler';
export type { FetchHandlerOptions, FetchSessionOptions } from './FetchHandlerOptions';
export type { EndpointOptions, EndpointSessionOptions } from '../http/EndpointOptions';
