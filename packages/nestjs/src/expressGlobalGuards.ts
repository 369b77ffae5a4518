import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallerCarrier } from './nestCaller';
import type { EndpointGate } from './endpointGate';

/** An Express request handler, typed structurally (the package does not depend on Express's types). */
export type ExpressHandler = (req: IncomingMessage & CallerCarrier & { originalUrl?: string }, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Express middleware, mounted just before the endpoint's, that runs the endpoint's gate (Nest's
 * global guards, then `authInfoFrom`) on each request to the endpoint's paths (`paths`, matched
 * exactly, as the endpoint matches them), as Nest runs guards before a route's handler: after
 * Nest's body parsers (whose refusals are answered first, as for a route), with Express's `req`
 * and `res` in the context. A refusal is answered here in JSON-RPC; headers a guard set on `res`
 * (a `Retry-After`) stay on the answer, refused or served. CORS preflights (`OPTIONS`, which carry
 * no credentials) and the app's other paths, the authorization server's included, are not guarded.
 */
export function expressGlobalGuards(gate: EndpointGate, paths: ReadonlySet<string>): ExpressHandler {
  const next = (): void => undefined;
  return (req, res, onward) => {
    const path = pathOf(req.originalUrl ?? req.url ?? '');
    if (req.method === 'OPTIONS' || !paths.has(path) || !gate.active) return onward();
    void gate.check([req, res, next], req, `${req.method} ${path}`).then((refused) => {
      // A guard that answered the request itself (a redirect) has the last word.
      if (res.headersSent) return;
      if (!refused) return onward();
      const text = JSON.stringify(refused.body);
      res.writeHead(refused.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
    });
  };
}

function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
