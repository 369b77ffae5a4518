/** The scope tokens of a `scope` parameter (RFC 6749 §3.3: space-delimited, order and repetition meaningless): each once, in first-seen order. */
export function scopeTokens(scope: string | null | undefined): string[] {
  return [...new Set((scope ?? '').split(' ').filter(Boolean))];
}
