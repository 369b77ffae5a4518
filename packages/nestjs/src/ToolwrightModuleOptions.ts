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
  /**
   * Whether the Nest app's global guards (`APP_GUARD` providers and `app.useGlobalGuards(...)`)
   * run on each HTTP request to the MCP endpoint, as before a route's handler. Default true: a
   * global auth guard protects the endpoint as it protects the app's routes. A guard that returns
   * false is a 403, one that throws an `HttpException` its status and message, in JSON-RPC.
   * `false` leaves the endpoint to `http.auth` or `oauth`; with neither, the module warns at start
   * when the app has global guards. Global interceptors and exception filters never run on it.
   */
  globalGuards?: boolean;
  /**
   * Decorators for the endpoint as the global guards see it: applied to `context.getClass()`
   * (a class named `ToolwrightEndpoint`, one per module) and to `context.getHandler()` (its
   * `handle` method), as on a controller and its route, so a guard's `Reflector` checks find
   * them: `[Public()]` for an auth guard that lets routes marked public through (when `http.auth`
   * or `oauth` protects the endpoint), `[Roles('agent')]`, `[SkipThrottle()]`.
   */
  endpointDecorators?: readonly (ClassDecorator & MethodDecorator)[];
}
