import type { ToolContext } from '../context/ToolContext';
import type { JsonSchema } from '../schema/JsonSchema';

/**
 * What to change about one argument of a tool. Give `value` or `compute` to hide it (it leaves
 * the input schema and the server fills it in), or `narrow` to tighten what clients may send.
 */
export interface ArgumentTransform {
  /** Hide the argument and always send this value (checked against the argument's schema at build). */
  readonly value?: unknown;
  /** Hide the argument and compute its value for each call from the call's context (e.g. `ctx => ctx.authInfo?.extra?.sub`). */
  readonly compute?: (ctx: ToolContext) => unknown;
  /**
   * Keywords that narrow the argument's schema: an `enum` subset, `const`, a lower `maximum`
   * or `maxLength`, a `pattern`... They are shown in `tools/list` merged into the argument's
   * schema and enforced on every call, before the tool's own checks. Widening is a build error.
   */
  readonly narrow?: JsonSchema;
  /** A new description of the argument. */
  readonly description?: string;
}

/**
 * Changes to one tool as clients see it: its name, title and description, and its arguments.
 * Keyed by the tool's own name in `@TransformTools(...)`, a mount's `transforms` and
 * `fromOpenApi`'s `transforms`; one function applies them all (see the Transforms guide).
 */
export interface ToolTransform {
  /** The new name (a mounted tool then gets its namespace in front of it). */
  readonly name?: string;
  /** The new title (for UIs). */
  readonly title?: string;
  /** The new description, or a function of the current one. */
  readonly description?: string | ((current: string | undefined) => string);
  /** Changes by argument name. */
  readonly arguments?: Readonly<Record<string, ArgumentTransform>>;
}

/** Transforms by the tool name they apply to. */
export type ToolTransforms = Readonly<Record<string, ToolTransform>>;
