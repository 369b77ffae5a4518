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
 * `use` runs. A middleware may call `next` once, before it answers; a second call, or one
 * after it answered (the call's services and context are closed then), is a bug it is told of.
 */
export function composeMiddleware(list: readonly Middleware[]): MiddlewareChain {
  const steps = list.map(toStep);
  return (call, container, inner, shape) => {
    const at = (i: number): Promise<unknown> => {
      if (i === steps.length) return inner();
      let called = false;
      let answered = false;
      const next: Next = () => {
        if (answered)
          return handled(
            Promise.reject(
              new ToolwrightError(
                `Middleware #${i} (${nameOf(list[i])}) called next() after it had answered the call of '${call.name}', whose services and context are closed by then. Call next() before you answer, and await it.`,
              ),
            ),
          );
        if (called)
          return handled(
            Promise.reject(
              new ToolwrightError(`Middleware #${i} (${nameOf(list[i])}) called next() twice in one call of '${call.name}'. Call it once, and keep its promise if you need the result again.`),
            ),
          );
        called = true;
        return handled(at(i + 1));
      };
      const settle = () => void (answered = true);
      const answer = new Promise<unknown>((resolve) => resolve(steps[i](call, next, container)));
      answer.then(settle, settle);
      return answer.then(shape);
    };
    return at(0);
  };
}

/**
 * `promise`, marked as handled: a middleware that drops what next() gives (answering with a
 * value of its own) must not turn the member's failure into an unhandled rejection, which ends
 * a Node process. A middleware that awaits it still gets the rejection.
 */
function handled(promise: Promise<unknown>): Promise<unknown> {
  promise.catch(() => undefined);
  return promise;
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
