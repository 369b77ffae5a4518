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
 * The kinds that belong to a class: an error of such a kind is always an instance of it, so
 * the class's `is` implies its fields (`BuildError.is(e)` means `e.problems` exists).
 */
const CLASS_OF_KIND = {
  build: 'BuildError',
  config: 'ConfigError',
  tool: 'ToolError',
  resource_not_found: 'ResourceNotFoundError',
  protocol: 'ProtocolError (from @toolwright/server)',
  startup: 'StartupError',
  interrupt: 'CallInterrupt',
} as const satisfies Record<Exclude<ToolwrightErrorKind, 'internal'>, string>;

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

  /**
   * `kind` may name only a kind no class owns (`'internal'`, the default): a kind with a class
   * is that class's (throw `new BuildError(problems)`, not `{ kind: 'build' }`), and a class
   * with a kind of its own takes no other. Either mistake throws a TypeError that says so.
   */
  constructor(message: string, options?: { cause?: unknown; kind?: 'internal' }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.kind = kindOf(new.target as typeof ToolwrightError, options?.kind);
    Object.setPrototypeOf(this, new.target.prototype);
  }

  static is<T extends ToolwrightError>(this: { readonly prototype: T; readonly KIND: ToolwrightErrorKind | undefined }, value: unknown): value is T {
    if (typeof value !== 'object' || value === null || (value as Record<symbol, unknown>)[BRAND] !== true) return false;
    return this.KIND === undefined || (value as ToolwrightError).kind === this.KIND;
  }
}

function kindOf(cls: typeof ToolwrightError, asked: ToolwrightErrorKind | undefined): ToolwrightErrorKind {
  const own = cls.KIND;
  if (asked === undefined || asked === own) return own ?? 'internal';
  if (own !== undefined) throw new TypeError(`${cls.name} always has kind '${own}'; drop the kind option ('${String(asked)}' was given).`);
  if (asked === 'internal') return asked;
  const owner: string | undefined = Object.hasOwn(CLASS_OF_KIND, asked) ? CLASS_OF_KIND[asked] : undefined;
  if (owner) throw new TypeError(`${cls.name}: the kind '${asked}' belongs to ${owner}; throw a ${owner.split(' ')[0]} instead of passing { kind: '${asked}' }.`);
  throw new TypeError(`${cls.name}: unknown kind ${JSON.stringify(asked)}; the kinds are ${[...Object.keys(CLASS_OF_KIND), 'internal'].map((k) => `'${k}'`).join(', ')}.`);
}
