/** One reason a value was rejected, at one path (`filters.tags[1]`; empty for the root). */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of validating (and possibly transforming) a value. */
export type ValidationOutcome<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };
