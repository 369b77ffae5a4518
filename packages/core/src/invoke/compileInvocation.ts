import type { ContainerLike } from '../container/ContainerLike';
import type { ToolContext } from '../context/ToolContext';
import { CallInterrupt } from '../errors/CallInterrupt';
import type { Class } from '../metadata/Class';
import type { ValidationIssue, ValidationOutcome } from '../validation/ValidationIssue';

/** Validated positional arguments, or the issues; a promise only when a check is asynchronous (class-validator). */
export type Bound = ValidationOutcome<unknown[]> | Promise<ValidationOutcome<unknown[]>>;
/** Validates a call's arguments and lays them out as the method's positional arguments, the context included. */
export type Bind = (args: Record<string, unknown>, ctx: ToolContext | undefined) => Bound;

/** What one call of a member method came to: its (awaited) return value, the argument issues, or what it threw. */
export type Invocation =
  | { readonly kind: 'returned'; readonly value: unknown }
  | { readonly kind: 'invalid'; readonly issues: readonly ValidationIssue[] }
  | { readonly kind: 'threw'; readonly error: unknown };

export interface InvocationSpec {
  readonly cls: Class;
  readonly methodName: string;
  readonly container: ContainerLike;
  readonly bind: Bind;
}

/**
 * The one compiled call every member (tool, resource, prompt) goes through: bind the
 * arguments, resolve the instance from the container, call the method, and catch what it
 * throws. Adapters turn the outcome into a tool result or a protocol answer. A promise
 * only when the binding or the method is asynchronous; throws (or rejects) only to pass
 * on a `CallInterrupt`.
 */
export function compileInvocation({ cls, methodName, container, bind }: InvocationSpec): (args: Record<string, unknown>, ctx: ToolContext | undefined) => Invocation | Promise<Invocation> {
  const run = (bound: ValidationOutcome<unknown[]>): Invocation | Promise<Invocation> => {
    if (!bound.ok) return { kind: 'invalid', issues: bound.issues };
    const instance = container.get(cls) as Record<string, (...a: unknown[]) => unknown>;
    const returned = instance[methodName].apply(instance, bound.value);
    return isThenable(returned) ? Promise.resolve(returned).then(toReturned, threw) : { kind: 'returned', value: returned };
  };
  return (args, ctx) => {
    try {
      const bound = bind(args, ctx);
      return bound instanceof Promise ? bound.then(run).catch(threw) : run(bound);
    } catch (error) {
      return threw(error);
    }
  };
}

function toReturned(value: unknown): Invocation {
  return { kind: 'returned', value };
}

function threw(error: unknown): Invocation {
  if (CallInterrupt.is(error)) throw error;
  return { kind: 'threw', error };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
