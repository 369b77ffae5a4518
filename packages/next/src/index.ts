/** @toolwright/next — serve a Toolwright app's MCP endpoint from Next.js App Router route handlers. */
export { createRouteHandlers } from './createRouteHandlers';
export type { RouteHandler, RouteHandlers } from './createRouteHandlers';
export type { RouteHandlersOptions } from './RouteHandlersOptions';
