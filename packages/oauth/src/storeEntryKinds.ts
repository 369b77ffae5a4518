/**
 * The three kinds of entries the authorization server keeps, by who can make them:
 * - `client`: anyone, without signing in: a registered client (`client:`), a client ID
 *   metadata document or its refusal (`cimd:`), and a client's cached `jwks_uri` keys or the
 *   failure to fetch them (`client-jwks:`, `client-jwks:<hash>:failed`; written only when there
 *   is room, what was fetched answers its request anyway);
 * - `signIn`: anyone who names a known client: a pending sign-in (`signin:`, `upstream-state:`)
 *   and the mark that an upstream sign-in's callback came (`upstream-state:<hash>:used`, which
 *   anyone holding the state can make, answering `error=...`; it lives a minute, the state goes);
 * - `grant`: only a signed-in user or an authenticated client: grants, codes, refresh tokens
 *   and what they use (`grant:`, `code:`, `code-used:`, `rt:`, `rt-used:`, `upstream:`, ...),
 *   the spent `jti` of a `private_key_jwt` assertion (`assertion:`, spent only by a request
 *   that issues tokens or revokes or spends a code or refresh token of the client's grant), and
 *   that a consent page was answered (`signin-done:`, after the user signed in), so a sign-in
 *   under way always finishes. Any key without a known prefix is counted here.
 * A store that bounds its size gives the first two a share each, so that a flood of either
 * never leaves the clients and grants already there without room to sign in and refresh.
 */
export type StoreEntryKind = 'client' | 'signIn' | 'grant';

const KIND_OF_PREFIX = new Map<string, StoreEntryKind>([
  ['client', 'client'],
  ['cimd', 'client'],
  ['client-jwks', 'client'],
  ['signin', 'signIn'],
  ['upstream-state', 'signIn'],
]);

export function storeEntryKind(key: string): StoreEntryKind {
  const colon = key.indexOf(':');
  return (colon > 0 && KIND_OF_PREFIX.get(key.slice(0, colon))) || 'grant';
}
