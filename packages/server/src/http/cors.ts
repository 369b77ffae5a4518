import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CorsOptions } from './HttpHandlerOptions';

const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/**
 * Compiles CORS handling: adds the response headers for an allowed Origin and answers
 * preflights. Returns true when the request was a preflight and has been answered.
 */
export function createCors(options: CorsOptions, isAllowedOrigin: (origin: string | undefined) => boolean) {
  const listed = options.origins ? new Set(options.origins.map((o) => o.toLowerCase())) : undefined;
  const any = options.origins?.includes('*') ?? false;
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const allows = (origin: string) => (listed ? any || listed.has(origin.toLowerCase()) : isAllowedOrigin(origin));

  return (req: IncomingMessage, res: ServerResponse): boolean => {
    const origin = req.headers.origin;
    if (origin === undefined || !allows(origin)) return false;
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Vary', 'Origin');
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    if (req.method !== 'OPTIONS') return false;
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS');
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', maxAge);
    res.writeHead(204).end();
    return true;
  };
}
