import type { FetchHandlerOptions } from '@toolwright/server/fetch';

/** How the route handlers serve the MCP endpoint: every option of `createFetchHandler`, with route defaults. */
export interface RouteHandlersOptions extends FetchHandlerOptions {
  /**
   * The endpoint's URL path, as the route file places it: `app/mcp/route.ts` serves `/mcp` (the
   * default); with a `basePath` in next.config, include it. A request at another path gets 404
   * saying which path to set.
   */
  path?: string;
  /** Toolwright's own `/healthz` and `/readyz`. Default false: route handlers only see their own route. */
  health?: boolean;
}
