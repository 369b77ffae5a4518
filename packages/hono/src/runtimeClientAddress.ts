import type { Context } from 'hono';

/** What runtimes put in Hono's `c.env`, as far as the connection's address goes. */
interface RuntimeEnv {
  /** `@hono/node-server`: the node request. */
  incoming?: { socket?: { remoteAddress?: unknown } };
  /** Deno (`Deno.serve(web.fetch)`): the connection info. */
  remoteAddr?: { hostname?: unknown };
  /** Bun (`Bun.serve(web)`): the server. */
  requestIP?: (request: Request) => { address?: unknown } | null;
}

/**
 * The address of the connection a request came on, from what the runtime gave Hono: the node
 * socket on `@hono/node-server`, the connection info on Deno, `server.requestIP()` on Bun.
 * Undefined on other runtimes (Workers: use the `clientAddress` option).
 */
export function runtimeClientAddress(c: Context): string | undefined {
  const env = c.env as RuntimeEnv | undefined;
  if (typeof env !== 'object' || env === null) return undefined;
  const address = env.incoming?.socket?.remoteAddress ?? env.remoteAddr?.hostname ?? (typeof env.requestIP === 'function' ? env.requestIP(c.req.raw)?.address : undefined);
  return typeof address === 'string' ? address : undefined;
}
