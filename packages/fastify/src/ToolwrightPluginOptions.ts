import type { App } from '@toolwright/server';
import type { HttpHandlerOptions } from '@toolwright/server/http';

/** What `fastify.register(toolwrightPlugin, options)` takes: the app, and every option of `createHttpHandler`. */
export interface ToolwrightPluginOptions extends HttpHandlerOptions {
  /** The Toolwright app to serve (from `createApp`). */
  app: App;
  /** The endpoint's path, under the plugin's `prefix` if it is registered with one. Default `/mcp`. */
  path?: string;
  /** The largest body Fastify parses for the endpoint (its route `bodyLimit`). Default 4 MiB. */
  maxBodyBytes?: number;
  /** Toolwright's own `GET /healthz` and `GET /readyz`. Default false here: a Fastify app has its own. */
  health?: boolean;
  /**
   * How long `fastify.close()` waits for running calls before abandoning them. Default 10000. The app
   * then waits for its work still in flight (a task's run) for what is left of it at most, before
   * its shutdown hooks run.
   */
  drainTimeoutMs?: number;
}
