import type { FetchHandler } from '@toolwright/server/fetch';
import { authFromEnv } from './authFromEnv';
import { createEdgeHandler } from './handler';

/** The Worker's bindings this example reads (all optional). */
export interface WorkerEnv {
  /** Host names clients reach the Worker by, comma-separated; loopback names otherwise. */
  ALLOWED_HOSTS?: string;
  /** Bearer JWTs: see `authFromEnv`. */
  JWKS?: string;
  ISSUER?: string;
  RESOURCE?: string;
}

let handler: Promise<FetchHandler> | undefined;

/**
 * The app as a Cloudflare Worker (workerd): stateless, since requests of one client may reach
 * different isolates. Built once per isolate, on its first request (a Worker may do no work
 * that needs a request's context at startup).
 */
export default {
  fetch(request: Request, env: WorkerEnv): Promise<Response> {
    handler ??= createEdgeHandler({ stateless: true, auth: authFromEnv(env), ...(env.ALLOWED_HOSTS && { allowedHosts: env.ALLOWED_HOSTS.split(',') }) });
    return handler.then((serve) => serve(request));
  },
};
