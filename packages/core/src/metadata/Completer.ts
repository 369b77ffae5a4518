/** What a completion provider is told besides the partial value: the other arguments already chosen, and when to stop. */
export interface CompletionRequestContext {
  /** Values the client already has for the other arguments of the same prompt or template. */
  readonly arguments: Readonly<Record<string, string>>;
  /**
   * Aborted once nobody waits for the suggestions any more: the client cancelled the request,
   * the connection closed, or the timeout of the prompt or template (else the app's `timeoutMs`)
   * passed. Hand it to a lookup that takes one (`fetch`, a database query) so it stops with the request.
   */
  readonly signal: AbortSignal;
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
