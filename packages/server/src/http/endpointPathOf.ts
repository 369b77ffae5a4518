import { ConfigError } from '@toolwright/core';

/**
 * The endpoint's `path` option as a request's URL spells it, which is what requests are matched
 * against: percent-encoded (`/outils métier` is served at `/outils%20m%C3%A9tier`), dot segments
 * resolved, a leading `/` added. A query or fragment is refused: they are never part of a path.
 */
export function endpointPathOf(path: unknown): string {
  if (path === undefined) return '/mcp';
  if (typeof path !== 'string' || path === '' || /[?#]/.test(path)) {
    throw new ConfigError(`Toolwright: the endpoint's path ${JSON.stringify(path)} is not a URL path. Give one like '/mcp', without a query (?) or fragment (#).`);
  }
  return new URL(`http://endpoint.invalid${path.startsWith('/') ? '' : '/'}${path}`).pathname;
}
