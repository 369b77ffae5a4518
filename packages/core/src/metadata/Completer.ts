/** What a completion provider is told besides the partial value: the other arguments already chosen. */
export interface CompletionRequestContext {
  /** Values the client already has for the other arguments of the same prompt or template. */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * Suggestions for one argument: a list (Toolwright keeps at most 100 and sets `total` and
 * `hasMore`), or the exact `completion` object when the provider knows the totals itself.
 */
export type CompletionValues = readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/**
 * Suggests values for a prompt argument or a resource-template variable as the user types.
 *
 * @example
 * ＠Param('city', { complete: (typed) => CITIES.filter((c) => c.startsWith(typed)) })
 */
export type Completer = (value: string, context: CompletionRequestContext) => CompletionValues | Promise<CompletionValues>;
