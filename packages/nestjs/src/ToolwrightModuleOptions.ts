import type { IncomingHttpHeaders } from 'node:http';
import type { ModuleMetadata, Provider, Type } from '@nestjs/common';
import type { AuthInfo } from '@toolwright/core';
import type { AppOptions } from '@toolwright/server';
import type { ToolwrightExpressOptions } from '@toolwright/express';

/**
 * A request to the MCP endpoint as the Nest app's routes get it (Express's `req`, or Fastify's
 * request), once the global guards allowed it: what they attached to it is there, such as
 * Passport's `user`.
 */
export interface NestEndpointRequest {
  readonly headers: IncomingHttpHeaders;
  /** What a Passport-style guard attached (`req.user`). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- whatever the app's guards put there, as on Express's own Request
  readonly user?: any;
  readonly [key: string]: unknown;
}

/** The caller of an MCP request, from what the app's guards established on it; see `ToolwrightModuleOptions.authInfoFrom`. */
export type AuthInfoFrom = (request: NestEndpointRequest) => AuthInfo | undefined | Promise<AuthInfo | undefined>;

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
   * Who the caller of each MCP request is, from what the app's guards established on it: a tool's
   * `ctx.authInfo`, and the identity Toolwright's own rules see (`@UseGuards` from `@toolwright/core`,
   * tools' `scopes` and `roles`, rate limits and caches per caller). Without it, a Nest guard's
   * `req.user` never reaches the tools: only `http.auth` or `oauth` name a caller.
   *
   * ```ts
   * authInfoFrom: (req) => req.user && { token: '', clientId: 'web', scopes: req.user.scopes, extra: { sub: req.user.id } }
   * ```
   *
   * It runs on every request to the endpoint (and to `/sse` and `/messages` with `http.legacySse`),
   * after the global guards allowed it (with `globalGuards: false`, on the request as the app's
   * middleware left it), with the platform's request (Express's `req`, Fastify's request), on both
   * platforms and for both protocol eras. It may be async. `undefined` is an anonymous caller. Give
   * `extra.sub` (the user) and `clientId`: a 2025-11-25 session is bound to them, so a session
   * opened by one user is unknown (404) to every other. An `HttpException` it throws refuses the
   * request with its status and message (as a guard's); any other error, or a value that is not an
   * `AuthInfo` (`token` a string, `clientId` a non-empty string, `scopes` a string array), is a 500
   * whose reason goes to Nest's log. Not with `http.auth` or `oauth`, which name the caller from
   * the bearer token themselves (a `ConfigError` at start).
   */
  authInfoFrom?: AuthInfoFrom;
  /**
   * Decorators for the endpoint as the global guards see it: applied to `context.getClass()`
   * (a class named `ToolwrightEndpoint`, one per module) and to `context.getHandler()` (its
   * `handle` method), as on a controller and its route, so a guard's `Reflector` checks find
   * them: `[Public()]` for an auth guard that lets routes marked public through (when `http.auth`
   * or `oauth` protects the endpoint), `[Roles('agent')]`, `[SkipThrottle()]`.
   */
  endpointDecorators?: readonly (ClassDecorator & MethodDecorator)[];
}
