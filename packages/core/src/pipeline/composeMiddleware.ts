import type { ContainerLike } from '../container/ContainerLike';
import { ToolwrightError } from '../errors/ToolwrightError';
import type { Class } from '../metadata/Class';
import type { MemberCall } from './MemberCall';
import type { Middleware, MiddlewareClass, MiddlewareFn, Next } from './Middleware';

/**
 * Runs `inner` (the member) inside a chain of middleware, outermost first; `shape` turns what
 * a middleware returns into a result, so the next one out always gets a result from `next()`.
 */
export type MiddlewareChain = (call: MemberCall, container: ContainerLike, inner: Next, shape: (value: unknown) => unknown) => Promise<unknown>;

/**
 * Composes middleware once (at the first call of a member): functions run as they are;
 * a class is built by the call's container (so request-scoped services reach it) and its
 * `use` runs. A middleware may call `next` once; a second call is a bug it is told of.
 */
export function composeMiddleware(list: readonly Middleware[]): MiddlewareChain {
  const steps = list.map(toStep);
  return (call, container, inner, shape) => {
    const at = (i: number): Promise<unknown> => {
      if (i === steps.length) return inner();
      let called = false;
      const next: Next = () => {
        if (called)
          return Promise.reject(
            new ToolwrightError(`Middleware #${i} (${nameOf(list[i])}) called next() twice in one call of '${call.name}'. Call it once, and keep its promise if you need the result again.`),
          );
        called = true;
        return at(i + 1);
      };
      return new Promise<unknown>((resolve) => resolve(steps[i](call, next, container))).then(shape);
    };
    return at(0);
  };
}

type Step = (call: MemberCall, next: Next, container: ContainerLike) => unknown;

function toStep(m: Middleware): Step {
  if (isMiddlewareClass(m)) return (call, next, container) => container.get(m).use(call, next);
  const fn = m as MiddlewareFn;
  return (call, next) => fn(call, next);
}

/** A class whose instances have `use(call, next)`; a plain function has no such prototype method. */
export function isMiddlewareClass(m: Middleware): m is Class<MiddlewareClass> {
  return typeof (m as { prototype?: { use?: unknown } }).prototype?.use === 'function';
}

function nameOf(m: Middleware): string {
  return (m as { name?: string }).name || 'anonymous';
}
