/** One thing wrong with the decorated classes, found while building the registry. */
export interface BuildProblem {
  /**
   * Where: `Class.method`, `Class.method param #0 'name'`, `Dto.property`, an injected service
   * (`Mailer, injected by MailTools (constructor parameter 1)`), or the classes one build-wide
   * cause touches (`TimeTools, Audit (middleware)`).
   */
  readonly where: string;
  /** What is wrong. */
  readonly what: string;
  /** How to fix it. */
  readonly fix: string;
}
