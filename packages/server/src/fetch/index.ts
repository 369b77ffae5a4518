/** @toolwright/server/fetch — serve an app as a web-standard `(request: Request) => Promise<Response>` handler (Deno, Bun, Workers). */
export { createFetchHandler } from './createFetchHandler';
export { checkFetchHandlerOptions } from './checkFetchHandlerOptions';
export type { HandlerOptionCheck } from '../ground/HandlerOptionCheck';
export { createAppStarter } from '../serving/createAppStarter';
export type { AppStarter } from '../serving/createAppStarter';
export { drainWindow } from '../serving/drainWindow';
export type { DrainWindow } from '../serving/drainWindow';
export type { FetchHandler } from './createFetchHandler';
export type { FetchHandlerOptions, FetchSessionOptions } from './FetchHandlerOptions';
export type { EndpointOptions, EndpointSessionOptions } from '../http/EndpointOptions';
