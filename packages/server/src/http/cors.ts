import type { CorsOptions } from './HttpHandlerOptions';

const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, Mcp-Session-Id, Mcp-Protocol-Version, Mcp-Method, Mcp-Name, Last-Event-ID';
const EXPOSE_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate';

/** The CORS headers of a response to an allowed Origin; `preflight` when the request was one, to answer with 204 and these headers. */
export interface CorsAnswer {
  readonly headers: Readonly<Record<string, string>>;
  readonly preflight: boolean;
}

/** CORS for one request: its Origin, method and the headers a preflight asks for. */
export type Cors = (origin: string | undefined, method: string | undefined, requestedHeaders?: string | null) => CorsAnswer | undefined;

/** An `Mcp-Param-<name>` header (SEP-2243): named per tool argument, so a preflight's request for one is allowed by its form. */
const PARAM_HEADER = /^mcp-param-[!#$%&'*+.^_`|~0-9a-z-]{1,100}$/i;
/** More than any tool's header arguments: a preflight asking for more gets the first ones only. */
const MAX_PARAM_HEADERS = 64;

/**
 * Compiles CORS handling over the request's Origin, method and, for a preflight, the headers it
 * asks for (`Access-Control-Request-Headers`): the response headers for an allowed Origin, and
 * whether the request is a preflight to answer at once (204). Undefined for a request without an
 * Origin or from one that is not allowed.
 */
export function createCors(options: CorsOptions, isAllowedOrigin: (origin: string | undefined) => boolean): Cors {
  const listed = options.origins ? new Set(options.origins.map((o) => o.toLowerCase())) : undefined;
  const any = options.origins?.includes('*') ?? false;
  const maxAge = String(options.maxAgeSeconds ?? 600);
  const allows = (origin: string) => (listed ? any || listed.has(origin.toLowerCase()) : isAllowedOrigin(origin));

  return (origin, method, requestedHeaders) => {
    if (origin === undefined || !allows(origin)) return undefined;
    const headers: Record<string, string> = { 'Access-Control-Allow-Origin': origin, Vary: 'Origin', 'Access-Control-Expose-Headers': EXPOSE_HEADERS };
    if (method !== 'OPTIONS') return { headers, preflight: false };
    headers['Access-Control-Allow-Methods'] = 'GET, POST, DELETE, OPTIONS';
    headers['Access-Control-Allow-Headers'] = ALLOW_HEADERS + paramHeaders(requestedHeaders);
    headers['Access-Control-Max-Age'] = maxAge;
    return { headers, preflight: true };
  };
}

/** The `Mcp-Param-*` names among the headers a preflight asks for, as `, A, B` to append to the allowed list. */
function paramHeaders(requested: string | null | undefined): string {
  if (!requested) return '';
  const names = requested
    .split(',')
    .map((name) => name.trim())
    .filter((name) => PARAM_HEADER.test(name))
    .slice(0, MAX_PARAM_HEADERS);
  return names.length === 0 ? '' : `, ${names.join(', ')}`;
}
