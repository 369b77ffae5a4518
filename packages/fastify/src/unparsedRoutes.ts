import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify';

/**
 * Routes `methods` on `paths` to `serve` in a child context that parses no body, whatever its
 * media type: the stream is left unread for `serve`, as the node listener leaves it. The app's
 * hooks and the plugin's error handler still apply; its body parsers do not.
 */
export async function unparsedRoutes(fastify: FastifyInstance, methods: HTTPMethods[], paths: readonly string[], serve: RouteHandlerMethod): Promise<void> {
  await fastify.register(async (child) => {
    // Inherited parsers (Fastify's JSON one, a form parser the app added) would read the stream first, or refuse a media type they lack (415).
    child.removeAllContentTypeParsers();
    child.addContentTypeParser('*', (_request, _payload, done) => done(null));
    for (const url of paths) child.route({ method: methods, url, handler: serve });
  });
}
