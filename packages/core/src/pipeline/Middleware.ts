import type { Class } from '../metadata/Class';
import type { MemberCall } from './MemberCall';

/**
 * Runs the rest of the chain and the method itself. Resolves to the member's result as the
 * client will get it (a tool's `ToolResult`, a `resources/read` result, a `prompts/get`
 * result); rejects with what the method threw (a `ToolError`, or any other error).
 */
export type Next = () => Promise<unknown>;

/**
 * Code around every call of a member: `(call, next) => result`. Await `next()` to run the
 * member (and the middleware inside this one); return its result, a changed result, or a
 * result of your own without calling `next` (short-circuit). What a middleware throws is
 * answered like an error the method threw. A returned value that is not a result is
 * normalized as a method's return value would be.
 */
export type MiddlewareFn = (call: MemberCall, next: Next) => unknown;

/** A middleware class: built by the app's container (so it gets injected services), then `use` runs per call. */
export interface MiddlewareClass {
  use(call: MemberCall, next: Next): unknown;
}

/** A middleware function, or a class the container builds. */
export type Middleware = MiddlewareFn | Class<MiddlewareClass>;
