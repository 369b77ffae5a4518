const BRAND = Symbol.for('toolwright.error');

/**
 * What went wrong, stable across versions (switch on it rather than on class or message):
 * - `build`: the decorated classes cannot be served (thrown at startup, lists every problem);
 * - `config`: an option or argument given to Toolwright is wrong (`createApp`, `listen`, CLI flags);
 * - `tool`: a tool reports a failure the model should see (`ToolError`);
 * - `resource_not_found`: a resource URI names nothing (`ResourceNotFoundError`);
 * - `protocol`: a request breaks the protocol; it becomes a JSON-RPC error with the spec's code;
 * - `startup`: a start hook (`onStart`, `@OnStart()`) failed, so the app did not start serving;
 * - `interrupt`: `ctx` ends a call to ask the client first (`CallInterrupt`, passed on by the invokers, never an error result);
 * - `internal`: anything else Toolwright reports.
 */
export type ToolwrightErrorKind = 'build' | 'config' | 'tool' | 'resource_not_found' | 'protocol' | 'startup' | 'interrupt' | 'internal';

/**
 * Base class of every error Toolwright throws. Branded with a global symbol so `is()`
 * holds even when two copies of the package are loaded: `ToolwrightError.is(e)` matches
 * any of them, a subclass's `is` (`BuildError.is(e)`) only errors of its own kind.
 */
export class ToolwrightError extends Error {
  readonly [BRAND] = true;
  /** The kind every instance of this class has; undefined on the base class (any kind). */
  static readonly KIND: ToolwrightErrorKind | undefined = undefined;
  readonly kind: ToolwrightErrorKind;

  constructor(message: string, options?: { cause?: unknown; kind?: ToolwrightErrorKind }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = (new.target as typeof ToolwrightError).KIND ?? options?.kind ?? 'internal';
    Object.setPrototypeOf(this, new.target.prototype);
  }

  static is<T extends ToolwrightError>(this: { readonly prototype: T; readonly KIND: ToolwrightErrorKind | undefined }, value: unknown): value is T {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
    return this.KIND === undefined || (value as ToolwrightError).kind === this.KIND;
  }
}
