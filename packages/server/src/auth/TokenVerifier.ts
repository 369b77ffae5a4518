import type { AuthInfo } from '@toolwright/core';

/**
 * Checks a bearer token and says who it belongs to. Return (or resolve) undefined, or
 * throw, for a token that is not valid for this server: the caller then gets 401.
 * Check the audience: a token issued for another service must not be accepted here.
 */
export type TokenVerifier = (token: string) => AuthInfo | undefined | Promise<AuthInfo | undefined>;
