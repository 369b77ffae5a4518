/**
 * Whose share of sessions and of the `initialize` rate a request counts against: its
 * principal (see `principalOf`), or, for an anonymous caller, its client address, so one
 * anonymous client cannot use up what other anonymous clients are allowed.
 */
export function sessionOwnerOf(principal: string | undefined, clientAddress: string | undefined): string {
  return principal !== undefined ? `principal ${principal}` : `anonymous ${clientAddress ?? 'unknown address'}`;
}
