/** A scope as RFC 6749 §3.3 defines it (`%x21 / %x23-5B / %x5D-7E`, no space): safe inside a quoted header value. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** True for a string that is one scope token, so it may be quoted in a `WWW-Authenticate` challenge as it is. */
export const isScopeToken = (scope: unknown): scope is string => typeof scope === 'string' && SCOPE_TOKEN.test(scope);
