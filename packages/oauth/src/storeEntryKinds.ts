/**
 * The three kinds of entries the authorization server keeps, by who can make them:
 * - `client`: anyone, without signing in: a registered client (`client:`), a client ID
 *   metadata document or its refusal (`cimd:`);
 * - `signIn`: anyone who names a known client: a pending sign-in (`signin:`, `upstream-state:`);
 * - `grant`: only a signed-in user, an authenticated client, or the one holding a pending
 *   sign-in: grants, codes, refresh tokens and what they use (`grant:`, `code:`, `code-used:`,
 *   `rt:`, `rt-used:`, `upstream:`, ...), and that a pending sign-in was answered
 *   (`signin-done:`, `upstream-state:<hash>:used`), so a sign-in under way always finishes.
 * A store that bounds its size gives the first two a share each, so that a flood of either
 * never leaves the clients and grants already there without room to sign in and refresh.
 */
export type StoreEntryKind = 'client' | 'signIn' | 'grant';

const KIND_OF_PREFIX = new Map<string, StoreEntryKind>([
  ['client', 'client'],
  ['cimd', 'client'],
  ['signin', 'signIn'],
  ['upstream-state', 'signIn'],
]);

export function storeEntryKind(key: string): StoreEntryKind {
  const colon = key.indexOf(':');
  const kind = (colon > 0 && KIND_OF_PREFIX.get(key.slice(0, colon))) || 'grant';
  // The mark that an upstream sign-in's callback came: one per pending sign-in, made by its holder.
  return kind === 'signIn' && key.endsWith(':used') ? 'grant' : kind;
}
