/**
 * The error codes an authorization or token response may carry: OAuth 2.0 (RFC 6749 §4.1.2.1,
 * §5.2) and OpenID Connect Core 1.0 (§3.1.2.6).
 */
const KNOWN_CODES = new Set([
  'invalid_request',
  'unauthorized_client',
  'access_denied',
  'unsupported_response_type',
  'invalid_scope',
  'server_error',
  'temporarily_unavailable',
  'invalid_client',
  'invalid_grant',
  'unsupported_grant_type',
  'interaction_required',
  'login_required',
  'account_selection_required',
  'consent_required',
  'invalid_request_uri',
  'invalid_request_object',
  'request_not_supported',
  'request_uri_not_supported',
  'registration_not_supported',
]);

/**
 * The upstream provider's `error`, when it is one of the codes OAuth and OpenID Connect define;
 * undefined for anything else. Only such a code is passed on to the MCP client: the callback's
 * query comes through the user's browser, and anyone can craft it to put their own words (or a
 * phone number to call) in front of the user through the client. The provider's
 * `error_description` is never passed on.
 */
export function upstreamErrorCode(error: unknown): string | undefined {
  return typeof error === 'string' && KNOWN_CODES.has(error) ? error : undefined;
}
