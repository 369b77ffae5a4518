import { ConfigError } from '@toolwright/core';

/** An Express 5 router layer, as much of it as is read here. */
interface RouteLayer {
  route?: { path?: unknown; methods?: Record<string, boolean> };
  match?(path: string): unknown;
}

/**
 * Refuses to mount the MCP endpoint where a Nest route already answers: Nest registers its
 * controllers before modules initialize, so on Express such a route would take the endpoint's
 * requests silently (a `@Post('mcp')`, a `@Get(':id')`, a catch-all), and on Fastify the same
 * path fails at listen with Fastify's duplicate-route error. The error names the route and the fix.
 */
export function refuseNestRoutesOnPath(platform: 'express' | 'fastify', instance: unknown, mcpPath: string): void {
  const taken = platform === 'express' ? expressRoutesOn(instance, mcpPath) : fastifyRoutesOn(instance, mcpPath);
  if (taken.length === 0) return;
  throw new ConfigError(
    `Toolwright: the MCP endpoint's path ${mcpPath} is taken by the Nest route${taken.length > 1 ? 's' : ''} ${taken.join(', ')} (a controller, or a module that registers routes), which would answer before the endpoint. ` +
      `Give the endpoint a path of its own, e.g. ToolwrightModule.forRoot({ http: { path: '/mcp-tools' } }), or move the route.`,
  );
}

/** The Nest routes on Express that match the path, as `METHOD pattern`. */
function expressRoutesOn(instance: unknown, path: string): string[] {
  const stack = (instance as { router?: { stack?: unknown } }).router?.stack;
  if (!Array.isArray(stack)) return [];
  return (stack as RouteLayer[])
    .filter((layer) => layer.route && typeof layer.match === 'function' && layer.match(path))
    .map((layer) => {
      const methods = Object.keys(layer.route?.methods ?? {}).map((m) => (m === '_all' ? 'ALL' : m.toUpperCase()));
      return `${methods.join('/') || 'ALL'} ${String(layer.route?.path)}`;
    });
}

/** The Nest routes on Fastify at exactly the path (Fastify prefers a static path to a parametric one, and refuses a duplicate). */
function fastifyRoutesOn(instance: unknown, path: string): string[] {
  const fastify = instance as { hasRoute?(route: { url: string; method: string }): boolean; supportedMethods?: unknown };
  if (typeof fastify.hasRoute !== 'function') return [];
  const methods = Array.isArray(fastify.supportedMethods) ? (fastify.supportedMethods as string[]) : ['GET', 'POST', 'DELETE'];
  const taken = methods.filter((method) => fastify.hasRoute!({ url: path, method }));
  return taken.length > 0 ? [`${taken.join('/')} ${path}`] : [];
}
