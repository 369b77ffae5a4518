import type { ServerResponse } from 'node:http';
import type { EndpointGate } from './endpointGate';
import type { CallerCarrier } from './nestCaller';

/** As much of a Fastify request as is read here (the package does not depend on Fastify's types). */
export interface FastifyRequestLike {
  readonly method: string;
  readonly raw: CallerCarrier;
  readonly routeOptions: { readonly url?: string };
}

/** As much of a Fastify reply as is used here. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  readonly sent: boolean;
  getHeaders(): Record<string, number | string | string[] | undefined>;
  code(status: number): FastifyReplyLike;
  type(contentType: string): FastifyReplyLike;
  send(payload: string): FastifyReplyLike;
}

/** A Fastify `preHandler` hook. */
export type FastifyPreHandler = (request: FastifyRequestLike, reply: FastifyReplyLike) => Promise<unknown>;

/**
 * A `preHandler` hook, added to a scope around `@toolwright/fastify`'s plugin, that runs the
 * endpoint's gate (Nest's global guards, then `authInfoFrom`) on each request Fastify routes to the endpoint's paths (`paths`, the routes'
 * own paths), as Nest runs them before a route's handler: after Fastify parsed the body, with
 * Fastify's request and reply in the context (what Nest's route handlers get on this platform).
 * A refusal is sent with the reply, so the headers a guard set on it go too; when the guards
 * allow the request, the headers they set are copied to the raw response the endpoint writes
 * (it takes the request over with `reply.hijack()`, which sends none of the reply's own).
 * CORS preflights and the plugin's other routes (the authorization server's) are not guarded.
 */
export function fastifyGlobalGuards(gate: EndpointGate, paths: ReadonlySet<string>): FastifyPreHandler {
  return async (request, reply) => {
    const route = request.routeOptions.url;
    if (request.method === 'OPTIONS' || route === undefined || !paths.has(route) || !gate.active) return;
    const before = reply.getHeaders();
    const refused = await gate.check([request, reply, undefined], request.raw, `${request.method} ${route}`);
    // A guard that answered the request itself has the last word.
    if (reply.sent || reply.raw.headersSent) return reply;
    if (refused) return reply.code(refused.status).type('application/json').send(JSON.stringify(refused.body));
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined && value !== before[name]) reply.raw.setHeader(name, typeof value === 'number' ? String(value) : value);
    }
    return undefined;
  };
}
