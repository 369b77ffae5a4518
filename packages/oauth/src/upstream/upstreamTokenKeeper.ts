import { ToolwrightError } from '@toolwright/core';
import { loadGrant, revokeGrant } from '../grants';
import type { OAuthContext } from '../OAuthContext';
import type { Upstream } from './createUpstream';
import type { UpstreamTokens } from './UpstreamProvider';

/** How long a refresh may hold a grant's lock; a crashed holder's lock expires after it. */
const LOCK_SECONDS = 30;
/** How often a caller waiting for another instance's refresh looks again. */
const WAIT_STEP_MS = 100;
/** How long a caller waits for another instance's refresh before giving up. */
const WAIT_LIMIT_MS = 15_000;

/**
 * A grant's upstream tokens, refreshed when the access token has expired or will within
 * `minValiditySeconds`: one refresh at a time per grant, in this instance (callers share the
 * running refresh) and across instances (a lock in the store, `add` being atomic; the others
 * wait for the tokens it stores). A provider that refuses the refresh token ends the grant here
 * too: the client's next call is refused and it signs in again.
 */
export function upstreamTokenKeeper(context: OAuthContext, upstream: Upstream) {
  const running = new Map<string, Promise<UpstreamTokens | undefined>>();
  const read = async (grantId: string): Promise<UpstreamTokens | undefined> => {
    const sealed = await context.store.get(`upstream:${grantId}`);
    return sealed === undefined ? undefined : upstream.unseal(sealed, `grant:${grantId}`);
  };
  const stale = (tokens: UpstreamTokens, minValiditySeconds: number): boolean =>
    tokens.expires_at !== undefined && tokens.refresh_token !== undefined && tokens.expires_at - minValiditySeconds <= context.now() / 1000;

  async function refresh(grantId: string, minValiditySeconds: number): Promise<UpstreamTokens | undefined> {
    const lock = `upstream-refresh:${grantId}`;
    const started = Date.now();
    for (;;) {
      if (await context.store.add(lock, '1', LOCK_SECONDS)) {
        try {
          // Another instance may have refreshed between the first read and the lock.
          const current = await read(grantId);
          if (!current || !stale(current, minValiditySeconds)) return current;
          const fresh = await upstream.refresh(current);
          if (fresh === 'refused') {
            context.log.error(`toolwright oauth: ${upstream.provider.name} refused to refresh a grant's upstream tokens: the grant is revoked; the user signs in again.`);
            await revokeGrant(context, grantId);
            return undefined;
          }
          const grant = await loadGrant(context, grantId);
          if (!grant) return undefined;
          await context.store.set(`upstream:${grantId}`, await upstream.seal(fresh, `grant:${grantId}`), Math.max(1, Math.ceil((grant.expiresAt - context.now()) / 1000)));
          return fresh;
        } finally {
          await context.store.delete(lock);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, WAIT_STEP_MS));
      const current = await read(grantId);
      if (!current || !stale(current, minValiditySeconds)) return current;
      if (Date.now() - started > WAIT_LIMIT_MS) {
        throw new ToolwrightError(`Toolwright oauth: the upstream tokens of a grant are being refreshed elsewhere for more than ${WAIT_LIMIT_MS / 1000} s; try again later.`);
      }
    }
  }

  return async (grantId: string, minValiditySeconds: number): Promise<UpstreamTokens | undefined> => {
    const tokens = await read(grantId);
    if (!tokens || !stale(tokens, minValiditySeconds)) return tokens;
    let pending = running.get(grantId);
    if (!pending) {
      pending = refresh(grantId, minValiditySeconds).finally(() => running.delete(grantId));
      running.set(grantId, pending);
    }
    return pending;
  };
}
