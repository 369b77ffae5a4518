/**
 * The Fastify route that matches the endpoint's `path` as written, as the node handler matches it:
 * a `:` would start a route parameter, so it is doubled (the router's escape for a literal colon);
 * a `*` would be a wildcard, which has no escape, so such a path is refused at registration.
 */
export function literalRoute(path: string): string {
  if (path.includes('*')) {
    throw new TypeError(`Toolwright: the endpoint's path '${path}' holds '*', which Fastify's router would read as a wildcard serving every path after it. Give a path without '*', e.g. '/mcp'.`);
  }
  return path.replaceAll(':', '::');
}
