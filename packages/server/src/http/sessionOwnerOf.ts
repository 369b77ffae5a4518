/**
 * Whose share of sessions and of the `initialize` rate a request counts against: its
 * principal (see `principalOf`), or, for an anonymous caller, its client address, so one
 * anonymous client cannot use up what other anonymous clients are allowed.
 */
export function sessionOwnerOf(principal: string | undefined, clientAddress: string | undefined): string {
  return principal !== undefined ? `principal ${principal}` : `${ANONYMOUS}${clientAddress ?? 'unknown address'}`;
}

const ANONYMOUS = 'anonymous ';
/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
const LOOPBACK = /^(?:(?:::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1)$/i;

/**
 * True for an anonymous owner on a loopback address. Every client on this machine shares that
 * address, so a per-address limit cannot tell them apart: it would let one local client lock
 * every other out (the conformance suite alone opens more sessions in a burst than the default
 * rate allows). Such owners are not rate limited; their share of sessions still holds.
 */
export function isLoopbackAnonymous(owner: string): boolean {
  return owner.startsWith(ANONYMOUS) && LOOPBACK.test(owner.slice(ANONYMOUS.length));
}
