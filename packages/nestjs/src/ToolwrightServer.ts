import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { checkHttpHandlerOptions } from '@toolwright/server/http';
import { toolwrightMiddleware, type ToolwrightMiddleware } from '@toolwright/express';
import type { ToolwrightFastifyPlugin } from '@toolwright/fastify';
import { endpointGate } from './endpointGate';
import { endpointGuardTarget } from './endpointGuardTarget';
import { expressGlobalGuards } from './expressGlobalGuards';
import { fastifyGlobalGuards, type FastifyPreHandler } from './fastifyGlobalGuards';
import { loadFastifyPlugin } from './loadFastifyPlugin';
import { nestBodyParserErrors } from './nestBodyParserErrors';
import { nestCaller } from './nestCaller';
import { nestContainer } from './nestContainer';
import { nestGlobalGuards, type NestGlobalGuards } from './nestGlobalGuards';
import { nestJsonLimit } from './nestJsonLimit';
import { nestPipeline } from './nestPipeline';
import { refuseNestRoutesOnPath } from './nestRoutesOnPath';
import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

/** The injection token of the options given to `ToolwrightModule.forRoot`. */
export const TOOLWRIGHT_OPTIONS = Symbol('toolwright:options');

/** As much of a Fastify instance as is used here. */
interface FastifyScope {
  register(plugin: ToolwrightFastifyPlugin | ((scope: FastifyScope) => Promise<void>)): PromiseLike<unknown>;
  addHook(name: 'preHandler', hook: FastifyPreHandler): unknown;
}

/** The paths of the legacy HTTP+SSE transport (`http.legacySse`), which serve MCP as the endpoint does. */
const LEGACY_SSE_PATHS = ['/sse', '/messages'];
/** The endpoint's body limit unless `http.maxBodyBytes` says otherwise (`createHttpHandler`'s). */
const DEFAULT_MAX_BODY = 4 * 1024 * 1024;

/**
 * The Toolwright app of a `ToolwrightModule`, built once Nest has built the tool providers
 * (`onModuleInit`) and mounted on the Nest app's own HTTP server, behind the app's global guards
 * (unless `globalGuards: false`); its sessions end when the Nest app closes
 * (`beforeApplicationShutdown`, before the server stops). Inject it to reach the app
 * (`server.app.tools.disable(...)`, `server.app.notifyResourceUpdated(...)`).
 */
@Injectable()
export class ToolwrightServer implements OnModuleInit, BeforeApplicationShutdown {
  private built: App | undefined;
  private mounted: ToolwrightMiddleware | undefined;
  /** Served by the Fastify plugin, which drains and stops the app when Fastify closes. */
  private onFastify: ToolwrightFastifyPlugin | undefined;

  constructor(
    @Inject(TOOLWRIGHT_OPTIONS) private readonly options: ToolwrightModuleOptions,
    private readonly moduleRef: ModuleRef,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** The Toolwright app; there once the module has initialized. */
  get app(): App {
    if (!this.built) throw new ConfigError('Toolwright: the app is built when the Nest module initializes; read ToolwrightServer.app after app.init() (or listen()).');
    return this.built;
  }

  /** Live 2025-11-25 sessions of the MCP endpoint, on either platform. */
  get sessionCount(): number {
    return this.mounted?.sessionCount ?? this.onFastify?.sessionCount ?? 0;
  }

  /** Builds the app with Nest's container and Nest's guards and interceptors, then mounts the endpoint (Nest calls it). */
  async onModuleInit(): Promise<void> {
    const {
      tools,
      services,
      imports: _imports,
      providers: _providers,
      http,
      middleware,
      globalGuards: _globalGuards,
      endpointDecorators: _endpointDecorators,
      authInfoFrom,
      ...appOptions
    } = this.options;
    // Before the app is built: a misspelt defence (`alowedHosts`, `Auth`) would be ignored, and the endpoint served without it.
    if (http) checkHttpHandlerOptions(http, { call: 'ToolwrightModule.forRoot({ http })', own: ['drainTimeoutMs'], docsPage: 'NestJS' });
    if (authInfoFrom !== undefined && typeof authInfoFrom !== 'function') {
      throw new ConfigError(
        "Toolwright: ToolwrightModule option authInfoFrom is a function from the request to its caller, e.g. authInfoFrom: (req) => req.user && { token: '', clientId: 'web', scopes: [], extra: { sub: req.user.id } }.",
      );
    }
    if (authInfoFrom && (http?.auth || appOptions.oauth)) {
      throw new ConfigError(
        `Toolwright: ToolwrightModule has authInfoFrom and ${http?.auth ? 'http.auth' : 'oauth'}, which both name the caller of MCP requests. Give one: authInfoFrom for the caller your Nest guards established, or ${http?.auth ? 'http.auth' : 'oauth'} for the bearer token's.`,
      );
    }
    this.built = await createApp({
      ...appOptions,
      tools,
      services,
      container: nestContainer(this.moduleRef),
      // Nest's own guards and interceptors go outermost, as around a Nest route.
      middleware: [nestPipeline(this.moduleRef), ...(middleware ?? [])],
    });
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // an application context without HTTP (tests, scripts): the app is built, nothing is served
    const platform = adapter.getType();
    if (platform !== 'express' && platform !== 'fastify') {
      throw new ConfigError(
        `Toolwright: ToolwrightModule mounts the MCP endpoint on the Express (@nestjs/platform-express) or Fastify (@nestjs/platform-fastify) platform; this app runs on '${platform}'. ` +
          'Build it in an application context (NestFactory.createApplicationContext) and serve ToolwrightServer.app yourself.',
      );
    }
    const mcpPath = http?.path ?? '/mcp';
    // The guards, the route check and the body parser hooks match the path as written: without its '/', they would match no request while the endpoint serves '/<path>'.
    if (typeof mcpPath !== 'string' || !mcpPath.startsWith('/')) {
      throw new ConfigError(
        `Toolwright: ToolwrightModule option http.path is ${JSON.stringify(mcpPath)}, which does not start with '/'. Write http: { path: '/${typeof mcpPath === 'string' ? mcpPath : 'mcp'}' }.`,
      );
    }
    // Nest registered its controllers' routes already: one on the endpoint's path would answer in its place.
    refuseNestRoutesOnPath(platform, adapter.getInstance(), mcpPath);
    const logger = new Logger('ToolwrightModule');
    const gate = endpointGate(this.globalGuards(logger), authInfoFrom && nestCaller(authInfoFrom, logger));
    if (platform === 'fastify') {
      return this.mountOnFastify(adapter.getInstance(), this.built, gate && fastifyGlobalGuards(gate, new Set([mcpPath, ...(http?.legacySse ? LEGACY_SSE_PATHS : [])])));
    }
    // On Express the endpoint matches req.originalUrl, spelled as sent: percent-encoded, dot segments resolved
    // ('/outils métier' is served at '/outils%20m%C3%A9tier'). The guards and the body parser hooks match the same spelling.
    const requestPath = new URL(`http://endpoint.invalid${mcpPath}`).pathname;
    const guarded = new Set([requestPath, ...(http?.legacySse ? LEGACY_SSE_PATHS : [])]);
    // Nest's JSON parser reads bodies first: the endpoint plans 2026-07-28 round states with the limit that applies.
    const maxBodyBytes = await nestJsonLimit(adapter.getInstance(), requestPath, http?.maxBodyBytes ?? DEFAULT_MAX_BODY);
    this.mounted = toolwrightMiddleware(this.built, { ...http, maxBodyBytes });
    // Nest's body parsers read every body before the endpoint: their refusals on it are answered in JSON-RPC.
    const { before, after } = nestBodyParserErrors(requestPath);
    // The app's global guards run first, as before a route (Express skips them for a request its body parser refused).
    const handlers = gate ? [expressGlobalGuards(gate, guarded), before, ...this.mounted, after] : [before, ...this.mounted, after];
    (adapter.getInstance() as { use(handlers: unknown): void }).use(handlers);
    await this.mounted.ready;
  }

  /**
   * The app's global guards for the endpoint, or undefined with `globalGuards: false`; then, if
   * the app has global guards and nothing else protects the endpoint, a warning says so at start.
   */
  private globalGuards(logger: Logger): NestGlobalGuards | undefined {
    const guards = nestGlobalGuards(this.moduleRef, endpointGuardTarget(this.options.endpointDecorators), logger);
    if (this.options.globalGuards !== false) return guards;
    if (guards.count > 0 && !this.options.http?.auth && !this.options.oauth) {
      logger.warn(
        `Toolwright: globalGuards: false, so the app's ${guards.count} global guard(s) do not run on the MCP endpoint ${this.options.http?.path ?? '/mcp'}, and it has no http.auth or oauth: anyone who reaches the port can call its tools. ` +
          'Protect it with ToolwrightModule.forRoot({ http: { auth } }) or { oauth }, or remove globalGuards: false so that the global guards run on it.',
      );
    }
    return undefined;
  }

  /**
   * The Fastify platform: `@toolwright/fastify`'s plugin (loaded only here: an optional peer)
   * on Nest's Fastify instance, registered before Nest's not-found handler; Fastify loads it
   * (and the app's start hooks run) before it listens. `fastify.close()`, which Nest's `close()`
   * calls, drains and ends the sessions.
   */
  private async mountOnFastify(fastify: unknown, app: App, guards: FastifyPreHandler | undefined): Promise<void> {
    const plugin = (this.onFastify = loadFastifyPlugin()({ ...this.options.http, app }));
    if (!guards) return void (await (fastify as FastifyScope).register(plugin));
    // The plugin in a scope of its own whose preHandler hook runs the gate (global guards, authInfoFrom) (Fastify gives a scope's hooks to the plugins registered in it).
    await (fastify as FastifyScope).register(async (scope: FastifyScope) => {
      scope.addHook('preHandler', guards);
      await scope.register(plugin);
    });
  }

  /** Drains running calls and ends the sessions, then runs the app's shutdown hooks (Nest calls it on `close()`). */
  async beforeApplicationShutdown(): Promise<void> {
    // Ends the sessions and their SSE streams, so the HTTP server Nest closes next can close.
    await this.mounted?.close();
    if (!this.mounted && !this.onFastify) await this.built?.stop();
  }
}
