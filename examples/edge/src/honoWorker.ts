import type { Hono } from 'hono';
import { createHonoApp } from './honoApp';
import type { WorkerEnv } from './worker';

let web: Promise<Hono> | undefined;

/**
 * The Hono app as a Cloudflare Worker: stateless, like `worker.ts`, and built on the isolate's
 * first request. `cf-connecting-ip` is the caller's address Cloudflare's edge sets.
 */
export default {
  fetch(request: Request, env: WorkerEnv, ctx: unknown): Promise<Response> {
    web ??= createHonoApp({
      stateless: true,
      clientAddress: (c) => c.req.header('cf-connecting-ip'),
      ...(env.ALLOWED_HOSTS && { allowedHosts: env.ALLOWED_HOSTS.split(',') }),
    });
    return web.then(async (served) => served.fetch(request, env, ctx as never));
  },
};
