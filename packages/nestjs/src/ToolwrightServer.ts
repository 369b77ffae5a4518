import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost, ModuleRef } from '@nestjs/core';
import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { toolwrightMiddleware, type ToolwrightMiddleware } from '@toolwright/express';
import type { ToolwrightFastifyPlugin } from '@toolwright/fastify';
import { loadFastifyPlugin } from './loadFastifyPlugin';
import { nestBodyParserErrors } from './nestBodyParserErrors';
import { nestContainer } from './nestContainer';
import { nestPipeline } from './nestPipeline';
import { refuseNestRoutesOnPath } from './nestRoutesOnPath';
import type { ToolwrightModuleOptions } from './ToolwrightModuleOptions';

/** The injection token of the options given to `ToolwrightModule.forRoot`. */
export const TOOLWRIGHT_OPTIONS = Symbol('toolwright:options');

/**
 * The Toolwright app of a `ToolwrightModule`, built once Nest has built the tool providers
 * (`onModuleInit`) and mounted on the Nest app's own HTTP server; its sessions end when the
 * Nest app closes (`beforeApplicationShutdown`, before the server stops). Inject it to reach
 * the app (`server.app.tools.disable(...)`, `server.app.notifyResourceUpdated(...)`).
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
    const { tools, services, imports: _imports, providers: _providers, http, middleware, ...appOptions } = this.options;
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
    // Nest registered its controllers' routes already: one on the endpoint's path would answer in its place.
    refuseNestRoutesOnPath(platform, adapter.getInstance(), mcpPath);
    if (platform === 'fastify') return this.mountOnFastify(adapter.getInstance(), this.built);
    this.mounted = toolwrightMiddleware(this.built, http);
    // Nest's body parsers read every body before the endpoint: their refusals on it are answered in JSON-RPC.
    const { before, after } = nestBodyParserErrors(mcpPath);
    (adapter.getInstance() as { use(handlers: unknown): void }).use([before, ...this.mounted, after]);
    await this.mounted.ready;
  }

  /**
   * The Fastify platform: `@toolwright/fastify`'s plugin (loaded only here: an optional peer)
   * on Nest's Fastify instance, registered before Nest's not-found handler; Fastify loads it
   * (and the app's start hooks run) before it listens. `fastify.close()`, which Nest's `close()`
   * calls, drains and ends the sessions.
   */
  private async mountOnFastify(fastify: unknown, app: App): Promise<void> {
    this.onFastify = loadFastifyPlugin()({ ...this.options.http, app });
    await (fastify as { register(plugin: ToolwrightFastifyPlugin): PromiseLike<unknown> }).register(this.onFastify);
  }

  /** Drains running calls and ends the sessions, then runs the app's shutdown hooks (Nest calls it on `close()`). */
  async beforeApplicationShutdown(): Promise<void> {
    // Ends the sessions and their SSE streams, so the HTTP server Nest closes next can close.
    await this.mounted?.close();
    if (!this.mounted && !this.onFastify) await this.built?.stop();
  }
}
