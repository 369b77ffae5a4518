import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';

export interface RoundRobinProxy {
  readonly server: Server;
  readonly url: string;
  /** Where each request went: `METHOD target`. */
  readonly routed: string[];
  close(): Promise<void>;
}

/**
 * A small round-robin HTTP proxy for local use and tests: each request goes to the next
 * target (no stickiness), streamed both ways (SSE passes through). A target that refuses
 * the connection (it died) is skipped and the request goes to the next one, so a client
 * notices nothing more than a slower request. Not for production: use your load balancer.
 */
export async function startRoundRobinProxy(targets: readonly string[], port = 0): Promise<RoundRobinProxy> {
  let next = 0;
  const routed: string[] = [];
  /** Targets that refused a connection, skipped until then (ms since epoch). */
  const downUntil = new Map<string, number>();
  /** The next target in turn, skipping those tried for this request and those known down (unless nothing else is left). */
  const pick = (tried: Set<string>): string | undefined => {
    const now = Date.now();
    for (const skipDown of [true, false]) {
      for (let i = 0; i < targets.length; i++) {
        const target = targets[(next + i) % targets.length];
        if (tried.has(target) || (skipDown && (downUntil.get(target) ?? 0) > now)) continue;
        next = (next + i + 1) % targets.length;
        return target;
      }
    }
    return undefined;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const tried = new Set<string>();
      const attempt = () => {
        const chosen = pick(tried)!;
        tried.add(chosen);
        const target = new URL(chosen);
        const headers: IncomingHttpHeaders = { ...req.headers, host: target.host };
        const upstream = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
          routed.push(`${req.method} ${target.host}`);
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
          // The instance died mid-response (an SSE stream): cut the client's too, so it reconnects.
          answer.once('close', () => {
            if (!answer.complete) res.destroy();
          });
          res.once('close', () => answer.destroy());
        });
        upstream.on('error', (error: NodeJS.ErrnoException) => {
          if (!res.headersSent && error.code === 'ECONNREFUSED') {
            downUntil.set(chosen, Date.now() + 1000);
            if (tried.size < targets.length) return attempt();
          }
          if (!res.headersSent) res.writeHead(502, { 'content-type': 'application/json' }).end(JSON.stringify({ error: 'bad_gateway', error_description: error.message }));
          else res.destroy();
        });
        res.once('close', () => upstream.destroy());
        upstream.end(body);
      };
      attempt();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    server,
    url: `http://127.0.0.1:${address.port}/mcp`,
    routed,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
