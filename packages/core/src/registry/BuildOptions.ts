import type { ContainerLike } from '../container/ContainerLike';
import type { ToolLogger } from '../context/ToolContext';
import type { Class } from '../metadata/Class';
import type { Middleware } from '../pipeline/Middleware';

export interface BuildOptions {
  /** The classes whose `@Tool` methods are served. */
  readonly tools: readonly Class[];
  /** Builds tool classes and their dependencies. Default: typedi's `Container`. */
  readonly container?: ContainerLike;
  /**
   * Convert string arguments where a number, integer or boolean is expected ("5" -> 5).
   * Off by default: a model that sends the wrong type is told so and can correct itself.
   */
  readonly coerce?: boolean;
  /**
   * The app's own middleware (`createApp({ middleware })`), checked like the members'
   * `@UseMiddleware` classes: lifetimes and constructor types.
   */
  readonly middleware?: readonly Middleware[];
  /** Where the framework logs (unexpected tool errors with their stack). Default: stderr. */
  readonly logger?: ToolLogger;
  /**
   * Reads the HTML of a view declared with `@UiResource(uri, { file })`, once, at build; throws
   * an `Error` saying what is wrong with the file (it becomes a build problem). `createApp`
   * gives one that reads from disk; without it such a view is a build problem.
   */
  readonly readViewFile?: ReadViewFile;
}

/** `(path, declaredIn)`: the view's `file` as written, and the module that declared it (path or `file:` URL), for relative paths. */
export type ReadViewFile = (path: string, declaredIn: string | undefined) => string;
