import type { BuildProblem } from '../registry/BuildProblem';
import type { Class } from '../metadata/Class';
import type { JsonSchema } from './JsonSchema';

/**
 * State shared while deriving one root schema (one tool's input or output).
 * Nested classes are inlined; a class that refers back to itself (directly or
 * through others) is emitted once under the root's `$defs` and referenced with `$ref`.
 */
export interface SchemaContext {
  /** Root-level `$defs`, filled only for recursive classes (and their branches of discriminated unions). */
  readonly defs: Record<string, JsonSchema>;
  /** The `$defs` name given to each class placed there. */
  readonly defNames: Map<Class, string>;
  /**
   * The `$defs` name of each recursive class as a discriminated union's branch (the class with
   * the discriminator pinned), by class, then by discriminator property and value.
   */
  readonly variantNames: Map<Class, Map<string, string>>;
  /** Classes currently being expanded (to detect recursion). */
  readonly expanding: Set<Class>;
  /** Problems found; the build reports all of them at once. */
  readonly problems: BuildProblem[];
  /** Describes the schema's owner for messages, e.g. `WeatherTools.search`. */
  readonly where: string;
}

export function createSchemaContext(where: string, problems: BuildProblem[]): SchemaContext {
  return { defs: {}, defNames: new Map(), variantNames: new Map(), expanding: new Set(), problems, where };
}
