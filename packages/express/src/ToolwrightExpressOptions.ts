import type { HttpHandlerOptions } from '@toolwright/server/http';

/** How the middleware serves the MCP endpoint: every option of `createHttpHandler`, with adapter defaults. */
export interface ToolwrightExpressOptions extends HttpHandlerOptions {
  /**
   * The endpoint's full path as clients see it, wherever the middleware is mounted:
   * `app.use(mcp)` and `app.use('/mcp', mcp)` both serve `/mcp`. Default `/mcp`.
   */
  path?: string;
  /**
   * Toolwright's own `GET /healthz` and `GET /readyz`. Default false here: an Express app
   * has its own health routes, and these would answer before them.
   */
  health?: boolean;
  /**
   * How long `close()` waits for running calls before abandoning them. Default 10000. The app
   * then waits for its work still in flight (a task's run) for what is left of it at most, before
   * its shutdown hooks run.
   */
  drainTimeoutMs?: number;
}
