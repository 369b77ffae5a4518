/** One thing wrong with the decorated classes, found while building the registry. */
export interface BuildProblem {
  /** Where: `Class.method`, `Class.method param #0 'name'`, or `Dto.property`. */
  readonly where: string;
  /** What is wrong. */
  readonly what: string;
  /** How to fix it. */
  readonly fix: string;
}
