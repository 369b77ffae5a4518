import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify';
import { unparsedRoutes } from './unparsedRoutes';

/**
 * Routes the paths of the authorization server an app was built with (`createApp({ oauth })`:
 * metadata, authorize and its consent form, token, register, revoke, keys, the upstream
 * callback) to `serve`, in a child context that parses no body: the authorization server reads
 * its form and JSON bodies itself, with its own size limit, as it does on the node listener.
 * Its paths are absolute (they derive from the issuer URL), so the plugin must not be registered
 * under a prefix; the error says what to do instead.
 */
export async function authorizationServerRoutes(fastify: FastifyInstance, paths: readonly string[], serve: RouteHandlerMethod): Promise<void> {
  if (fastify.prefix !== '') {
    throw new Error(
      `Toolwright: this app serves an authorization server (createApp({ oauth })), whose paths (${paths.join(', ')}) are fixed by its issuer URL and lie outside the plugin's prefix '${fastify.prefix}'. ` +
        `Register toolwrightPlugin without a prefix and give the endpoint's full path instead: fastify.register(toolwrightPlugin, { app, path: '${fastify.prefix}/mcp' }).`,
    );
  }
  await unparsedRoutes(fastify, fastify.supportedMethods as HTTPMethods[], paths, serve);
}
