import type { ModuleMetadata, Provider, Type } from '@nestjs/common';
import type { AppOptions } from '@toolwright/server';
import type { ToolwrightExpressOptions } from '@toolwright/express';

/** What `ToolwrightModule.forRoot` takes: the app's options, Nest's module wiring, and how the endpoint is served. */
export interface ToolwrightModuleOptions extends Omit<AppOptions, 'tools' | 'services' | 'container'> {
  /** The tool classes (`@Injectable()` with `@Tool` methods): Nest providers of this module, built by Nest's container. */
  tools: readonly Type[];
  /** More classes with `@OnStart()` / `@OnShutdown()` methods; providers of this module too. */
  services?: readonly Type[];
  /** Modules whose exported providers the tools inject. */
  imports?: ModuleMetadata['imports'];
  /** More providers of this module: what the tools inject that no imported module exports, Toolwright guard and middleware classes. */
  providers?: Provider[];
  /**
   * How the MCP endpoint is served on the Nest app's own HTTP server (the Express or the Fastify
   * platform): every option of `createHttpHandler`. `path` is the full path (a global prefix
   * does not apply), and no Nest route may answer on it. Default `/mcp`. On Express, Nest's JSON
   * body parser reads the body first: its limit (100 kB unless `app.useBodyParser('json', { limit })`
   * raises it) applies as well as `maxBodyBytes`. On Fastify, the endpoint's route takes `maxBodyBytes` as its `bodyLimit`.
   */
  http?: ToolwrightExpressOptions;
}
