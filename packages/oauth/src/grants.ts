import type { GrantRecord, OAuthContext } from './OAuthContext';
import { readJson } from './OAuthContext';
import { scopeTokens } from './scopeTokens';
import { hmac, randomToken, sameString, sha256 } from './webCrypto';

/** A refresh token's record: `rt:<sha256>`. */
interface RefreshRecord {
  readonly grantId: string;
  readonly clientId: string;
  readonly expiresAt: number;
}

export type TokenResponse = { access_token: string; token_type: 'Bearer'; expires_in: number; scope: string; refresh_token?: string };

const REFRESH_PREFIX = 'twr_';

/**
 * A refresh token: `twr_<grant id>.<expiry>.<nonce>.<mac>`, the MAC (HMAC-SHA-256 under the
 * rotation key) over the rest, the expiry in seconds since the epoch. Only a grant's current
 * token (and, for the grace window, the one it replaced) has a record in the store; a token
 * whose MAC checks out, unexpired, with no record was issued here and rotated away since, so
 * presenting it is a replay. That keeps reuse detection for every token a grant ever had with
 * an entry or two per grant in the store, not two per refresh for a token's whole lifetime.
 */
async function mintRefreshToken(context: OAuthContext, grantId: string, expiresAt: number, nonce: string): Promise<string> {
  const body = `${grantId}.${Math.ceil(expiresAt / 1000)}.${nonce}`;
  return `${REFRESH_PREFIX}${body}.${await hmac(context.rotationKey, `refresh:${body}`)}`;
}

/** The grant and expiry (ms) of a refresh token this server issued, when its MAC checks out (whether or not it is still current); else undefined. */
export async function readRefreshToken(context: OAuthContext, token: string): Promise<{ grantId: string; expiresAt: number } | undefined> {
  if (!token.startsWith(REFRESH_PREFIX) || token.length > 512) return undefined;
  const parts = token.slice(REFRESH_PREFIX.length).split('.');
  if (parts.length !== 4 || parts.some((part) => part === '') || !/^\d{1,15}$/.test(parts[1]!)) return undefined;
  const [grantId, expiry, nonce, mac] = parts as [string, string, string, string];
  if (!sameString(mac, await hmac(context.rotationKey, `refresh:${grantId}.${expiry}.${nonce}`))) return undefined;
  return { grantId, expiresAt: Number(expiry) * 1000 };
}

export async function loadGrant(context: OAuthContext, grantId: string): Promise<GrantRecord | undefined> {
  const grant = await readJson<GrantRecord>(context.store, `grant:${grantId}`);
  return grant && grant.expiresAt > context.now() ? grant : undefined;
}

/** Removes a grant: its refresh tokens stop working now and its access tokens at the next check. */
export async function revokeGrant(context: OAuthContext, grantId: string): Promise<void> {
  await context.store.delete(`grant:${grantId}`);
  if (!context.upstream) return;
  const sealed = await context.store.get(`upstream:${grantId}`);
  if (sealed === undefined) return;
  await context.store.delete(`upstream:${grantId}`);
  // The upstream provider's tokens go too, where it allows; its failure does not undo the revocation here.
  await context.upstream.revoke(sealed, `grant:${grantId}`).catch((error: unknown) => {
    context.log.error(`toolwright oauth: revoking the upstream tokens of a grant at ${context.upstream!.provider.name} failed: ${(error as Error)?.message ?? String(error)}`);
  });
}

/** A fresh access token for the grant and, when it may refresh, a refresh token: `refresh` (a rotation's successor), or a new one. */
export async function issueTokens(context: OAuthContext, grant: GrantRecord, refresh?: { token: string; expiresAt: number }): Promise<TokenResponse> {
  const now = context.now();
  const iat = Math.floor(now / 1000);
  const expiresIn = context.ttl.access;
  const claims: Record<string, unknown> = {
    ...grant.claims,
    iss: context.issuer,
    aud: grant.resource,
    sub: grant.subject,
    client_id: grant.clientId,
    scope: grant.scopes.join(' '),
    sid: grant.id,
    jti: randomToken(16),
    iat,
  };
  if (grant.roles.length > 0) claims[context.rolesClaim] = [...grant.roles];
  claims.exp = iat + expiresIn;
  const access = await context.signer.sign(claims);
  const response: TokenResponse = { access_token: access, token_type: 'Bearer', expires_in: expiresIn, scope: grant.scopes.join(' ') };
  if (grant.refresh) {
    const expiresAt = refresh?.expiresAt ?? refreshExpiry(context, grant, now);
    const token = refresh?.token ?? (await mintRefreshToken(context, grant.id, expiresAt, randomToken(32)));
    const record: RefreshRecord = { grantId: grant.id, clientId: grant.clientId, expiresAt };
    await context.store.set(`rt:${await sha256(token)}`, JSON.stringify(record), Math.max(1, Math.ceil((expiresAt - now) / 1000)));
    response.refresh_token = token;
  }
  return response;
}

/** When a refresh token issued at `now` expires: its lifetime, within the grant's, on whole seconds (as its token carries it). */
function refreshExpiry(context: OAuthContext, grant: GrantRecord, now: number): number {
  return Math.ceil(Math.min(grant.expiresAt, now + context.ttl.refresh * 1000) / 1000) * 1000;
}

export type RefreshOutcome =
  | { ok: true; tokens: TokenResponse }
  | { ok: false; error: 'invalid_grant' | 'invalid_scope' | 'invalid_target'; description: string }
  /** `spend` answered false: the client's one-time proof was used before, and nothing was changed. */
  | { ok: false; spent: true };

/**
 * Rotates a refresh token: the first use marks it used and issues its successor; a use within
 * the grace window (a concurrent refresh of the same client) gets the same successor, which is
 * derived from the used token with the rotation key, so racing refreshes all agree; a use
 * after the window is a replay: the whole grant is revoked. The used token's records are kept
 * only for the grace window; after it, its MAC alone tells a replay (see `mintRefreshToken`).
 * `spend` (the client's one-time proof, see `authenticateClient`) is called once every check
 * that changes nothing has passed, before the first write or revocation.
 */
export async function refreshGrant(
  context: OAuthContext,
  token: string,
  clientId: string,
  scope: string | undefined,
  resource: string | undefined,
  spend: () => Promise<boolean>,
): Promise<RefreshOutcome> {
  const hash = await sha256(token);
  const record = await readJson<RefreshRecord>(context.store, `rt:${hash}`);
  const now = context.now();
  if (!record || record.expiresAt <= now) {
    // Issued here (its MAC checks out) and unexpired, yet no longer current: a rotated token used again.
    const issued = await readRefreshToken(context, token);
    const grant = issued && issued.expiresAt > now ? await loadGrant(context, issued.grantId) : undefined;
    if (grant && grant.clientId === clientId) {
      if (!(await spend())) return { ok: false, spent: true };
      await revokeGrant(context, grant.id);
      return { ok: false, error: 'invalid_grant', description: 'the refresh token was already used: every token of this grant is revoked; sign in again' };
    }
    return { ok: false, error: 'invalid_grant', description: 'the refresh token is not valid (unknown, expired or revoked)' };
  }
  if (record.clientId !== clientId) return { ok: false, error: 'invalid_grant', description: 'the refresh token was issued to another client' };
  const grant = await loadGrant(context, record.grantId);
  if (!grant) return { ok: false, error: 'invalid_grant', description: 'the grant of this refresh token was revoked or has ended: sign in again' };
  if (resource !== undefined && resource !== grant.resource) return { ok: false, error: 'invalid_target', description: `the refresh token is for resource ${grant.resource}, not ${resource}` };
  let scopes = grant.scopes;
  if (scope !== undefined && scope !== '') {
    const asked = scopeTokens(scope);
    const extra = asked.filter((s) => !grant.scopes.includes(s));
    if (extra.length > 0) return { ok: false, error: 'invalid_scope', description: `scope ${extra.join(' ')} was not granted; a refresh can only narrow the scope` };
    scopes = asked;
  }
  if (!(await spend())) return { ok: false, spent: true };
  // Both records of the used token go after the grace window: a later use finds neither and is told a replay by its MAC.
  const graceSeconds = Math.max(1, context.ttl.grace);
  const firstUse = await context.store.add(`rt-used:${hash}`, String(now), graceSeconds);
  if (firstUse) await context.store.set(`rt:${hash}`, JSON.stringify(record), graceSeconds);
  const usedAt = firstUse ? now : Number(await context.store.get(`rt-used:${hash}`));
  if (!(now - usedAt <= context.ttl.grace * 1000)) {
    await revokeGrant(context, grant.id);
    return { ok: false, error: 'invalid_grant', description: 'the refresh token was already used: every token of this grant is revoked; sign in again' };
  }
  // Racing refreshes agree on the successor: its nonce derives from the used token, its expiry from the first use's time.
  const expiresAt = refreshExpiry(context, grant, usedAt);
  const successor = await mintRefreshToken(context, grant.id, expiresAt, await hmac(context.rotationKey, `successor:${hash}`));
  return { ok: true, tokens: await issueTokens(context, { ...grant, scopes }, { token: successor, expiresAt }) };
}
