import type { CallHandler, CanActivate, ExecutionContext, NestInterceptor, Type } from '@nestjs/common';
import { GUARDS_METADATA, INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { ContextIdFactory, type ContextId, type ModuleRef } from '@nestjs/core';
import { ToolError, type MemberCall, type MiddlewareFn } from '@toolwright/core';
import { from, isObservable, lastValueFrom, type Observable } from 'rxjs';
import { ToolCallContext } from './ToolCallContext';

export { TOOLWRIGHT_CONTEXT } from './ToolCallContext';

type Enhancer<T> = T | Type<T>;

/**
 * A Toolwright middleware that honours Nest's `@UseGuards()` and `@UseInterceptors()` (from
 * `@nestjs/common`) on a tool class and its methods, class ones first, as Nest runs them
 * around a route: every guard must allow the call, then the interceptors wrap it, outermost
 * first. They get an `ExecutionContext` of type `'toolwright'`: `getClass()` and `getHandler()`
 * are the tool class and method (so `Reflector` reads their metadata), `switchToRpc().getData()`
 * is the validated arguments and `switchToRpc().getContext()` the whole `MemberCall` (the
 * caller's `authInfo`, the session, the era); `switchToHttp()` throws (see `ToolCallContext`). A guard that says no is a
 * `Forbidden` tool error; a Nest `HttpException` thrown on the way becomes a tool error with its message.
 * A guard or interceptor Nest builds once is built once; one it builds per request (request or
 * transient scope, its own or that of a provider it injects) is built for each call, in one Nest
 * context per call, so what it holds is never another caller's. A tool call is no HTTP request:
 * `REQUEST` is not registered in that context.
 */
export function nestPipeline(moduleRef: ModuleRef): MiddlewareFn {
  /** Enhancers Nest builds once (the default scope): resolved on their first call, then shared. */
  const shared = new Map<Type, unknown>();
  /** Enhancers Nest builds per request (request or transient scope, their own or a dependency's): built anew for every call. */
  const perCall = new Set<Type>();
  const instanceOf = async <T>(enhancer: Enhancer<T>, callScope: () => ContextId): Promise<T> => {
    if (typeof enhancer !== 'function') return enhancer;
    const cls = enhancer as Type<T>;
    // One context per call: a guard and an interceptor of one call share their request-scoped dependencies, no two calls do.
    if (perCall.has(cls)) return moduleRef.resolve(cls, callScope(), { strict: false });
    const known = shared.get(cls);
    if (known) return known as T;
    let instance: T;
    try {
      // Nest registered them as the tool module's injectables when it scanned the tool classes.
      instance = moduleRef.get(cls, { strict: false });
    } catch (error) {
      // Nest's InvalidClassScopeException: Nest builds this class per request, so every call gets its own, as each request would.
      if ((error as { constructor?: { name?: unknown } } | null)?.constructor?.name === 'InvalidClassScopeException') {
        perCall.add(cls);
        return moduleRef.resolve(cls, callScope(), { strict: false });
      }
      instance = await moduleRef.create(cls);
    }
    shared.set(cls, instance);
    return instance;
  };

  return async (call: MemberCall, next) => {
    try {
      return await around(call, next);
    } catch (error) {
      throw asToolError(error);
    }
  };

  async function around(call: MemberCall, next: () => Promise<unknown>): Promise<unknown> {
    const handler = (call.target.prototype as Record<string, unknown>)[call.methodName] as (...args: unknown[]) => unknown;
    const guards = enhancersOf<CanActivate>(GUARDS_METADATA, call.target, handler);
    const interceptors = enhancersOf<NestInterceptor>(INTERCEPTORS_METADATA, call.target, handler);
    if (guards.length === 0 && interceptors.length === 0) return next();

    const context = new ToolCallContext(call, handler);
    let contextId: ContextId | undefined;
    const callScope = () => (contextId ??= ContextIdFactory.create());
    for (const guard of guards) {
      const allowed = await settle((await instanceOf(guard, callScope)).canActivate(context));
      if (!allowed) throw new ToolError(`Forbidden: ${call.kind} '${call.name}' is not allowed for this caller (a Nest guard refused it).`);
    }
    if (interceptors.length === 0) return next();
    const instances = await Promise.all(interceptors.map((i) => instanceOf(i, callScope)));
    // Innermost first: the last interceptor wraps the call, the first wraps them all.
    const chain = instances.reduceRight<CallHandler>((inner, interceptor) => ({ handle: () => from(deferred(() => interceptor.intercept(context as ExecutionContext, inner))) }), {
      handle: () => from(next()),
    });
    return lastValueFrom(chain.handle());
  }
}

/**
 * A Nest `HttpException` (`ForbiddenException`, `NotFoundException`, ...) thrown by a guard,
 * an interceptor or the tool is a message written for the client: it becomes a tool error
 * with that message. Any other error stays as it is (the client gets no internals).
 */
function asToolError(error: unknown): unknown {
  if (error instanceof ToolError || typeof error !== 'object' || error === null) return error;
  const candidate = error as { getStatus?: unknown; message?: unknown };
  if (typeof candidate.getStatus !== 'function' || typeof candidate.message !== 'string') return error;
  return new ToolError(candidate.message, { cause: error });
}

/** Class enhancers, then the method's: as Nest reads them. */
function enhancersOf<T>(key: string, target: object, handler: unknown): Enhancer<T>[] {
  const onClass = (Reflect.getMetadata(key, target) as Enhancer<T>[] | undefined) ?? [];
  const onMethod = (handler ? (Reflect.getMetadata(key, handler as object) as Enhancer<T>[] | undefined) : undefined) ?? [];
  return [...onClass, ...onMethod];
}

/** A guard's answer: a boolean, its promise, or an observable of it. */
async function settle(answer: boolean | Promise<boolean> | Observable<boolean>): Promise<boolean> {
  return isObservable(answer) ? lastValueFrom(answer) : answer;
}

/** What `intercept` returns (an observable, or a promise of one) as one observable. */
async function deferred<T>(run: () => Observable<T> | Promise<Observable<T>>): Promise<T> {
  return lastValueFrom(await run());
}
