import { OPEN_ORIGIN } from './oauthResponses';

/**
 * The `Allow` header of an endpoint that serves `methods`: them and OPTIONS, which every endpoint
 * answers. Its OPTIONS answer and its 405 both say it (RFC 9110 §15.5.6: a 405's Allow names the
 * methods the target supports), from the one list the endpoint's module keeps.
 */
export function allowOf(methods: readonly string[]): string {
  return [...methods, 'OPTIONS'].join(', ');
}

/**
 * The answer to an OPTIONS request at an endpoint that serves `methods`: 204 with `Allow`
 * naming them and OPTIONS (RFC 9110 §9.3.7). At an endpoint a browser-based client calls from
 * another origin (`open`), it is also the CORS preflight's answer: any origin, the same methods
 * in `Access-Control-Allow-Methods`, and the request headers such a client sends.
 */
export function optionsAnswer(methods: readonly string[], open: boolean): Response {
  const allow = { Allow: allowOf(methods) };
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
