/** One reason a value was rejected, at one path (`filters.tags[1]`; empty for the root). */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** The outcome of validating (and possibly transforming) a value. */
export type ValidationOutcome<T = unknown> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly ValidationIssue[] };

/** How many issues an error message lists; the rest are counted. */
export const MAX_LISTED_ISSUES = 20;

/**
 * Past this many issues a validator stops walking arrays and objects: a million bad items
 * cost no more than a hundred, and the verdict (invalid) is the same.
 */
export const MAX_COLLECTED_ISSUES = 100;

/**
 * One `- path: message` line per issue, `root` naming the empty path; past
 * `MAX_LISTED_ISSUES` the rest are counted, so a million bad items make a short message.
 */
export function issueLines(issues: readonly ValidationIssue[], root: string): string {
  const lines: string[] = [];
  for (let i = 0; i < issues.length && i < MAX_LISTED_ISSUES; i++) lines.push(`- ${issues[i].path || root}: ${issues[i].message}`);
  const more = issues.length - lines.length;
  if (issues.length >= MAX_COLLECTED_ISSUES) lines.push(`- … and more (the check stopped after ${issues.length} issues)`);
  else if (more > 0) lines.push(`- … and ${more} more issue${more === 1 ? '' : 's'}`);
  return lines.join('\n');
}
