import type { CorsOptions } from './HttpHandlerOptions';

const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/** The CORS headers of a response to an allowed Origin; `preflight` when the request was one, to answer with 204 and these headers. */
export interface CorsAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly preflight: boolean;
}

/**
 * Compiles CORS handling over the request's Origin and method: the response headers for an
 * allowed Origin, and whether the request is a preflight to answer at once (204).
 * Undefined for a request without an Origin or from one that is not allowed.
 */
export function createCors(options: CorsOptions, isAllowedOrigin: (origin: string | undefined) => boolean): (origin: string | undefined, method: string | undefined) => CorsAnswer | undefined {
  const listed = options.origins ? new Set(options.origins.map((o) => o.toLowerCase())) : undefined;
  const any = options.origins?.includes('*') ?? false;
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const allows = (origin: string) => (listed ? any || listed.has(origin.toLowerCase()) : isAllowedOrigin(origin));

  return (origin, method) => {
    if (origin === undefined || !allows(origin)) return undefined;
    const headers: Record<string, string> = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
    if (method !== 'OPTIONS') return { headers, preflight: false };
    headers['Access-Control-Allow-Methods'] = 'GET, POST, DELETE, OPTIONS';
    headers['Access-Control-Allow-Headers'] = ALLOW_HEADERS;
    headers['Access-Control-Max-Age'] = maxAge;
    return { headers, preflight: true };
  };
}
