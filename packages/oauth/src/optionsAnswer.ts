import { OPEN_ORIGIN } from './oauthResponses';

/**
 * The answer to an OPTIONS request at an endpoint that serves `methods`: 204 with `Allow`
 * naming them and OPTIONS (RFC 9110 §9.3.7). At an endpoint a browser-based client calls from
 * another origin (`open`), it is also the CORS preflight's answer: any origin, the same methods
 * in `Access-Control-Allow-Methods`, and the request headers such a client sends.
 */
export function optionsAnswer(methods: readonly string[], open: boolean): Response {
  const allow = { Allow: [...methods, 'OPTIONS'].join(', ') };
  if (!open) return new Response(null, { status: 204, headers: allow });
  return new Response(null, {
    status: 204,
    headers: {
      ...allow,
      ...OPEN_ORIGIN,
      'Access-Control-Allow-Methods': methods.join(', '),
      'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
      'Access-Control-Max-Age': '600',
    },
  });
}
