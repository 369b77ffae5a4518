import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { {{appFactory}} } from './app';

/** The Worker's bindings this app reads (wrangler.jsonc `vars`, or `wrangler secret put`). */
export interface WorkerEnv {
  /** Host names clients reach the Worker by, comma-separated, e.g. `my-worker.example.workers.dev`; loopback names otherwise. */
  ALLOWED_HOSTS?: string;
}

let handler: Promise<FetchHandler> | undefined;

/**
 * The app as a Cloudflare Worker: stateless (2026-07-28, and 2025-11-25 without sessions),
 * since a client's requests may reach different isolates. Built once per isolate, on its first
 * request: a Worker may not do I/O outside a request.
 */
export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    handler ??= {{appFactory}}().then((app) => createFetchHandler(app, { stateless: true, ...(env.ALLOWED_HOSTS && { allowedHosts: env.ALLOWED_HOSTS.split(',') }) }));
    return handler.then((serve) => serve(request));
  },
};
