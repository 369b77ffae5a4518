import type { Context } from 'hono';
import type { FetchHandlerOptions } from '@toolwright/server/fetch';

/** How the Hono middleware serves the MCP endpoint: every option of `createFetchHandler`, with adapter defaults. */
export interface ToolwrightHonoOptions extends FetchHandlerOptions {
  /**
   * The endpoint's full path as clients see it, wherever the middleware is mounted:
   * `web.use(mcp)`, `web.use('/mcp', mcp)` and `web.all('/mcp', mcp)` all serve `/mcp`. Default `/mcp`.
   */
  path?: string;
  /**
   * Toolwright's own `GET /healthz` and `GET /readyz`. Default false here: a Hono app has its
   * own health routes, and these would answer before them.
   */
  health?: boolean;
  /**
   * How long `close()` waits for running calls before abandoning them. Default 10000. The app
   * then waits for its work still in flight (a task's run) for what is left of it at most, before
   * its shutdown hooks run.
   */
  drainTimeoutMs?: number;
  /**
   * The client address of a request, by which anonymous callers' sessions and `initialize`
   * rate are counted. Default: the connection's address on `@hono/node-server`, Deno and Bun
   * (`c.env`); undefined elsewhere. On Workers return `c.req.header('cf-connecting-ip')`.
   * Never trust a forwarding header your own proxy does not set.
   */
  clientAddress?: (c: Context) => string | undefined;
}
