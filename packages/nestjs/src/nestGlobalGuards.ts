import type { CanActivate, LoggerService, Type } from '@nestjs/common';
import { ApplicationConfig, ContextIdFactory, type ModuleRef } from '@nestjs/core';
import { ExecutionContextHost } from '@nestjs/core/helpers/execution-context-host';
import { isObservable, lastValueFrom } from 'rxjs';
import { nestRefusal, refusal, type GuardRefusal } from './nestRefusal';

export type { GuardRefusal } from './nestRefusal';

/** The endpoint as a guard sees it: `context.getClass()` and `context.getHandler()`. */
export interface GuardTarget {
  readonly cls: Type;
  readonly handler: (...args: never[]) => unknown;
}

/** Nest's global guards, run on one HTTP request as Nest runs them before a route's handler. */
export interface NestGlobalGuards {
  /** How many global guards the app has now, request-scoped ones included. */
  readonly count: number;
  /**
   * Runs every global guard on the request, in Nest's order (the static ones, `APP_GUARD`
   * providers then `useGlobalGuards` instances, then request-scoped `APP_GUARD`s), each with an
   * HTTP `ExecutionContext` whose arguments are `[request, response, next]`. Undefined when all
   * allow it; otherwise the refusal to send. It never rejects.
   */
  check(args: readonly [request: object, response: object, next: unknown], where: string): Promise<GuardRefusal | undefined>;
}

/** What Nest answers for a guard that returns false (`FORBIDDEN_MESSAGE` of `@nestjs/core`). */
const FORBIDDEN = 'Forbidden resource';

/**
 * The app's global guards: what `app.useGlobalGuards(...)` and the `APP_GUARD` providers
 * registered, read from Nest's `ApplicationConfig` (a provider of every module, the object Nest's
 * router reads them from) on each request, so guards added before `listen()` count. Static guards
 * are Nest's own instances, built with their dependencies by Nest's container; a request-scoped
 * `APP_GUARD` is resolved per request through `ModuleRef.resolve` with the request's context id
 * (the request registered as `REQUEST`), as Nest resolves it for a route.
 *
 * This file holds what the package knows of Nest's guard machinery: `GuardsConsumer.tryActivate`
 * (a falsy answer, awaited and unwrapped from an observable, refuses) and Nest's exception
 * handler (an `HttpException` is its status and message; anything else is a 500 and a log line).
 */
export function nestGlobalGuards(moduleRef: ModuleRef, target: GuardTarget, logger: LoggerService): NestGlobalGuards {
  const config = moduleRef.get(ApplicationConfig, { strict: false });

  async function guardsFor(request: object): Promise<CanActivate[]> {
    const shared = config.getGlobalGuards();
    const scoped = config.getGlobalRequestGuards();
    if (scoped.length === 0) return shared;
    const contextId = ContextIdFactory.getByRequest(request);
    moduleRef.registerRequestByContextId(request, contextId);
    const perRequest = await Promise.all(scoped.map((wrapper) => moduleRef.resolve<unknown, CanActivate>(wrapper.token, contextId, { strict: false })));
    return [...shared, ...perRequest];
  }

  async function check(args: readonly [object, object, unknown], where: string): Promise<GuardRefusal | undefined> {
    let current = 'a global guard';
    try {
      const guards = await guardsFor(args[0]);
      if (guards.length === 0) return undefined;
      const context = new ExecutionContextHost([...args], target.cls, target.handler);
      context.setType('http');
      for (const guard of guards) {
        current = `the global guard ${guard?.constructor?.name ?? 'guard'}`;
        const answer: unknown = guard.canActivate(context);
        const allowed = typeof answer === 'boolean' ? answer : await settle(answer);
        if (!allowed) return refusal(403, FORBIDDEN);
      }
      return undefined;
    } catch (error) {
      return nestRefusal(error, current, where, logger);
    }
  }

  return {
    get count() {
      return config.getGlobalGuards().length + config.getGlobalRequestGuards().length;
    },
    check,
  };
}

/** A guard's answer: a value, its promise, or an observable of it (from any copy of rxjs). */
async function settle(answer: unknown): Promise<unknown> {
  const value: unknown = await answer;
  return isObservable(value) ? lastValueFrom(value) : value;
}
