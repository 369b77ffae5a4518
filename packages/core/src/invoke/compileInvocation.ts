import type { ContainerLike } from '../container/ContainerLike';
import type { ToolContext } from '../context/ToolContext';
import { CallInterrupt } from '../errors/CallInterrupt';
import type { Class } from '../metadata/Class';
import type { ValidationIssue } from '../validation/ValidationIssue';
import { argumentDepthIssue } from '../validation/argumentDepth';

/** Valid arguments laid out for the method (`value`, the context included) and as validated (`args`); or the issues. */
export type BindOutcome = { readonly ok: true; readonly value: unknown[]; readonly args: Record<string, unknown> } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };
/** A bind outcome; a promise only when a check is asynchronous (class-validator). */
export type Bound = BindOutcome | Promise<BindOutcome>;
/** Validates a call's arguments and lays them out as the method's positional arguments, the context included. */
export type Bind = (args: Record<string, unknown>, ctx: ToolContext | undefined) => Bound;

/** What one call of a member method came to: its shaped result, the argument issues, or what it threw. */
export type Invocation =
  { readonly kind: 'returned'; readonly value: unknown } | { readonly kind: 'invalid'; readonly issues: readonly ValidationIssue[] } | { readonly kind: 'threw'; readonly error: unknown };

/** What the server gives one call besides its arguments and context; absent on the fast path. */
export interface CallScope {
  /** Builds the member's class for this call instead of the app's container (request- or session-scoped services). */
  readonly container?: ContainerLike;
  /**
   * Runs once the arguments are valid, around the method (the middleware chain): `run`
   * resolves to the shaped result and rejects with what the method threw; `shape` turns a
   * value of a middleware's own into a result. What `around` resolves to is shaped again.
   */
  readonly around?: (args: Record<string, unknown>, run: () => Promise<unknown>, shape: (value: unknown) => unknown) => Promise<unknown>;
}

/** A compiled call: arguments, context, the server's scope, and how to shape a returned value (default: the spec's). */
export type Invoke = (args: Record<string, unknown>, ctx: ToolContext | undefined, scope?: CallScope, shape?: (value: unknown) => unknown) => Invocation | Promise<Invocation>;

export interface InvocationSpec {
  readonly cls: Class;
  readonly methodName: string;
  readonly container: ContainerLike;
  readonly bind: Bind;
  /** Turns the method's return value into the member's result; may throw to report a value it cannot serve. */
  readonly shape: (value: unknown) => unknown;
}

/**
 * The one compiled call every member (tool, resource, prompt) goes through: bind the
 * arguments, resolve the instance from the container, call the method (inside the scope's
 * `around`, when there is one), shape its value, and catch what it throws. Adapters turn
 * the outcome into a tool result or a protocol answer. A promise only when the binding,
 * the method or the scope is asynchronous; throws (or rejects) only to pass on a `CallInterrupt`.
 * Arguments that nest deeper than `MAX_ARGUMENT_DEPTH` are refused first, naming where.
 */
export function compileInvocation({ cls, methodName, container, bind, shape: defaultShape }: InvocationSpec): Invoke {
  const run = (bound: BindOutcome, scope: CallScope | undefined, shape: (value: unknown) => unknown, signal: AbortSignal | undefined): Invocation | Promise<Invocation> => {
    if (!bound.ok) return { kind: 'invalid', issues: bound.issues };
    const from = scope?.container ?? container;
    const callMethod = (): unknown => {
      const instance = from.get(cls) as Record<string, (...a: unknown[]) => unknown>;
      return instance[methodName](...bound.value);
    };
    const fail = signal ? (error: unknown) => threw(endedBy(signal, error)) : threw;
    const returned = (value: unknown): Invocation => ({ kind: 'returned', value: shape(value) });
    if (scope?.around) {
      // Middleware sees a method that stopped with its signal's reason as the framework's interrupt too.
      const method = () => new Promise<unknown>((resolve) => resolve(callMethod()));
      const inner = signal ? () => method().then(shape, (error: unknown) => Promise.reject(endedBy(signal, error))) : () => method().then(shape);
      return scope.around(bound.args, inner, shape).then(returned).catch(fail);
    }
    const value = callMethod();
    return isThenable(value) ? Promise.resolve(value).then(returned).catch(fail) : returned(value);
  };
  return (args, ctx, scope, shape = defaultShape) => {
    // Before any validator, transformer or middleware recurses into them (MAX_ARGUMENT_DEPTH).
    const deep = argumentDepthIssue(args);
    if (deep) return { kind: 'invalid', issues: [deep] };
    try {
      const bound = bind(args, ctx);
      return bound instanceof Promise ? bound.then((b) => run(b, scope, shape, ctx?.signal)).catch(threw) : run(bound, scope, shape, ctx?.signal);
    } catch (error) {
      return threw(ctx?.signal ? endedBy(ctx.signal, error) : error);
    }
  };
}

/**
 * What a method threw, or, when it stopped with its call's signal's reason (`ctx.signal`: the
 * client cancelled, the timeout passed, the connection closed), a `CallInterrupt`: the
 * framework ended the call, nothing failed, so nothing is logged as the method's failure.
 */
function endedBy(signal: AbortSignal, error: unknown): unknown {
  if (!signal.aborted || error !== signal.reason || CallInterrupt.is(error)) return error;
  return new CallInterrupt('The call ended (cancelled, timed out or disconnected) and the method stopped with its signal’s reason.', { cause: error });
}

function threw(error: unknown): Invocation {
  if (CallInterrupt.is(error)) throw error;
  return { kind: 'threw', error };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}
