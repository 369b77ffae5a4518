import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, HTTPMethods, preParsingHookHandler, RegisterOptions } from 'fastify';
import { bodyEncodingRefusal, checkHttpHandlerOptions, createHttpHandler, drainWindow, type DrainWindow, type HttpHandler } from '@toolwright/server/http';
import { authorizationServerRoutes } from './authorizationServerRoutes';
import { isHttp2 } from './isHttp2';
import { literalRoute } from './literalRoute';
import { parserRefusal } from './parserRefusal';
import { unparsedRoutes } from './unparsedRoutes';
import { useJsonBodyParser } from './useJsonBodyParser';
import type { ToolwrightPluginOptions } from './ToolwrightPluginOptions';

const DEFAULT_MAX_BODY = 4 * 1024 * 1024;
const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const LEGACY_SSE_PATHS = ['/sse', '/messages'];

/**
 * Serves a Toolwright app's MCP endpoint from a Fastify 5 app:
 * `fastify.register(toolwrightPlugin, { app, path: '/mcp' })`. Fastify reads the body (with
 * `maxBodyBytes` as the route's `bodyLimit`), parsed as the node listener parses it
 * (`useJsonBodyParser`); the request is then handed to
 * Toolwright's handler (`reply.hijack()`), which serves both protocol eras with every option and
 * defence of `app.listen({ transport: 'http' })`. An app built with `createApp({ oauth })` has its
 * authorization server's paths served too (bodies unparsed: it reads them itself), and the
 * endpoint takes its tokens. `fastify.close()` drains running calls and ends
 * the sessions before the server closes; the app's start hooks run while the plugin registers.
 */
export const toolwrightPlugin: FastifyPluginAsync<ToolwrightPluginOptions> = async (fastify: FastifyInstance, options: ToolwrightPluginOptions) => {
  await serveEndpoint(fastify, options);
};

/** `toolwrightPlugin` with its options bound, and a view of the endpoint it serves once registered. */
export interface ToolwrightFastifyPlugin extends FastifyPluginAsync {
  /** Live 2025-11-25 sessions of the endpoint (0 before the plugin is registered). */
  readonly sessionCount: number;
}

/**
 * The plugin for one endpoint, to register once: `const mcp = createToolwrightPlugin({ app });
 * await fastify.register(mcp);`, then `mcp.sessionCount`. Fastify keeps a plugin's routes and
 * decorations inside its own context, so the endpoint's state is read here instead.
 */
export function createToolwrightPlugin(options: ToolwrightPluginOptions): ToolwrightFastifyPlugin {
  let served: HttpHandler | undefined;
  const plugin: FastifyPluginAsync = async (fastify) => {
    if (served) throw new Error('Toolwright: this plugin from createToolwrightPlugin() is registered already; call createToolwrightPlugin() once per endpoint.');
    served = await serveEndpoint(fastify, options);
  };
  return Object.defineProperty(plugin, 'sessionCount', { get: () => served?.sessionCount ?? 0 }) as ToolwrightFastifyPlugin;
}

const DRAIN_OPTION = 'toolwrightPlugin options: drainTimeoutMs';
/** The plugin's options beside `createHttpHandler`'s, and Fastify's own for any plugin it registers (`prefix`, `logSerializers`; `logLevel` is the handler's too). */
const OWN_OPTIONS = ['app', 'drainTimeoutMs', 'prefix', 'logSerializers'];

async function serveEndpoint(fastify: FastifyInstance, options: ToolwrightPluginOptions): Promise<HttpHandler> {
  const { app, drainTimeoutMs, prefix: _prefix, logSerializers: _logSerializers, ...handlerOptions } = options as ToolwrightPluginOptions & RegisterOptions;
  if (!app || typeof app.openListener !== 'function') {
    throw new TypeError('Toolwright: toolwrightPlugin needs the app to serve: fastify.register(toolwrightPlugin, { app: await createApp({ ... }) }).');
  }
  checkHttpHandlerOptions(options, { call: 'toolwrightPlugin (@toolwright/fastify)', own: OWN_OPTIONS, docsPage: 'Fastify 5' });
  // Checked at registration: a wrong drain time fails fastify.ready(), not the close.
  const drainMs = drainWindow(DRAIN_OPTION, drainTimeoutMs).ms;
  const route = options.path ?? '/mcp';
  if (typeof route !== 'string' || !route.startsWith('/')) {
    const fix = typeof route === 'string' && route !== '' ? `path: '/${route}'` : "path: '/mcp'";
    throw new TypeError(`Toolwright: toolwrightPlugin's path ${JSON.stringify(route)} does not start with '/', as every Fastify route does (under a prefix too). Write ${fix}.`);
  }
  const mcpRoute = literalRoute(route);
  // Under a prefix, Fastify serves the route '/' at the prefix itself (and with a trailing slash).
  const fullPath = route === '/' && fastify.prefix !== '' ? fastify.prefix : `${fastify.prefix}${route}`;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
  const handler = createHttpHandler(app, { ...handlerOptions, path: fullPath, maxBodyBytes, health: options.health ?? false });
  const serve = (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    reply.hijack();
    const raw = request.raw as IncomingMessage & { body?: unknown };
    // Fastify read the stream already: the handler takes the parsed body instead of reading again.
    if (request.body !== undefined) raw.body = request.body;
    return handler(raw, reply.raw as ServerResponse, () => {
      reply.raw.writeHead(404, { 'Content-Type': 'application/json' }).end(JSON.stringify({ error: 'not_found' }));
    });
  };

  // Fastify's router decided this request is the endpoint's (a trailing slash, another case or a doubled slash, as its options allow): the handler matches the path exactly.
  const serveMcp = (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const url = request.raw.url ?? '';
    const query = url.indexOf('?');
    request.raw.url = query === -1 ? handler.path : `${handler.path}${url.slice(query)}`;
    return serve(request, reply);
  };

  // Marked after the app's own onRequest and preParsing hooks: an error on a request still without a body came from its content-type parser.
  const parsing = new WeakSet<FastifyRequest>();
  const preParsing: preParsingHookHandler = (request, reply, payload, done) => {
    // Fastify's parser reads the bytes as sent, as UTF-8: a compressed or non-UTF-8 body is refused unread, as standalone (an app hook that replaced the stream decoded it).
    const unreadable =
      request.method === 'POST' && payload === request.raw ? bodyEncodingRefusal({ contentEncoding: request.headers['content-encoding'], contentType: request.headers['content-type'] }) : undefined;
    if (unreadable) {
      return void reply
        .code(unreadable.status)
        .headers({ ...unreadable.headers, ...(isHttp2(request) ? {} : { Connection: 'close' }) })
        .send({ jsonrpc: '2.0', error: { code: unreadable.code, message: unreadable.message }, id: null });
    }
    parsing.add(request);
    done(null, payload);
  };
  // Only this plugin's routes: Fastify's refusals of a body on the endpoint are answered as JSON-RPC errors.
  // Set before any route: once a child context loads (below), the routes added before it keep the error handler they had.
  fastify.setErrorHandler((error, request, reply) => {
    const refusal = parserRefusal(error, maxBodyBytes, parsing.has(request) && request.body === undefined);
    if (!refusal) throw error;
    // Fastify set Connection: close on its parser's error, which HTTP/2 forbids.
    if (isHttp2(request)) void reply.removeHeader('Connection');
    else if (refusal.status === 413) void reply.header('Connection', 'close');
    return reply.code(refusal.status).send(refusal.body);
  });

  useJsonBodyParser(fastify);
  fastify.post(mcpRoute, { bodyLimit: maxBodyBytes, preParsing }, serveMcp);
  // Only a POST carries a message: a body on a PUT, DELETE or OPTIONS stays unread, as standalone (405, the session's end, the preflight; not Fastify's 415 for its media type).
  const bodyless = (fastify.supportedMethods as HTTPMethods[]).filter((method) => method !== 'POST');
  await unparsedRoutes(fastify, bodyless, [mcpRoute], serveMcp);
  // The legacy HTTP+SSE transport's paths are fixed at the root of the origin, as its clients find them.
  if (options.legacySse) {
    if (fastify.prefix !== '') {
      throw new TypeError(`Toolwright: legacySse serves /sse and /messages at the root of the origin; register the plugin without a prefix (it has '${fastify.prefix}'), or leave legacySse off.`);
    }
    for (const path of LEGACY_SSE_PATHS) fastify.all(path, { bodyLimit: maxBodyBytes, preParsing }, serve);
  }
  if (app.oauth) await authorizationServerRoutes(fastify, app.oauth.paths, serve);
  // RFC 9728 metadata lives at the root of the origin; with a prefix, serve it from your root app.
  if ((options.auth ?? app.oauth) && fastify.prefix === '') {
    fastify.get(literalRoute(`${WELL_KNOWN}${fullPath === '/' ? '' : fullPath}`), serve);
    if (fullPath !== '/') fastify.get(WELL_KNOWN, serve);
  }
  if (options.health === true) {
    fastify.get('/healthz', serve);
    fastify.get('/readyz', serve);
  }
  // Held before it starts: another listener closing meanwhile would stop the app under this endpoint. A failed start lets go
  // (fastify.ready() rejects with it): the app stops once its other listeners close, and a retried start is not held open.
  const release = app.openListener();
  try {
    await app.start();
  } catch (error) {
    await release();
    throw error;
  }

  // Opened when the close begins: the drain and the wait for the app's work in flight share it.
  let drain: DrainWindow | undefined;
  // Before the server stops listening: open SSE streams would keep it from closing.
  fastify.addHook('preClose', async () => {
    drain = drainWindow(DRAIN_OPTION, drainMs);
    await handler.close({ drainTimeoutMs: drain.ms });
  });
  fastify.addHook('onClose', async () => {
    // The app's work in flight outside the requests (a task's run) gets what is left of the same drain time.
    await release((drain ?? drainWindow(DRAIN_OPTION, drainMs)).left());
  });
  return handler;
}
