import type { ToolLogger } from '@toolwright/core';
import type { ClientDocumentFetcher } from './cimd/ClientDocumentFetcher';
import { refusalForClient } from './cimd/refusalForClient';
import type { OAuthStore } from './OAuthStore';
import { storeFullRetryAfter } from './OAuthStoreFullError';
import { sha256 } from './webCrypto';

/** A public key of a client, as its JWK set holds it. */
export type Jwk = Record<string, unknown>;

/** The keys at a client's `jwks_uri`, or what the client is told when there are none. */
export type JwksUriKeys = (jwksUri: string, clientId: string, kid: string | undefined) => Promise<{ keys: Jwk[] } | { error: string }>;

/** How long a client's `jwks_uri` keys are kept before they are fetched again. */
const JWKS_CACHE_SECONDS = 300;
/** An unknown `kid` fetches the keys again only when the cached ones are at least this old (no fetch per bad request). */
const JWKS_REFETCH_SECONDS = 60;
/** A `jwks_uri` that could not be fetched (or held no JWK set) is not fetched again for this long: its requests are refused with the same answer. */
const JWKS_FAILURE_SECONDS = 30;
/** How many failed `jwks_uri`s an instance remembers in memory (which holds where the store has no room); past this the oldest is forgotten. */
const MAX_FAILURES_IN_MEMORY = 1000;

type Outcome = { keys: Jwk[] } | { error: string };

/**
 * The keys at `private_key_jwt` clients' `jwks_uri`s, fetched through the guarded document
 * fetcher and cached in the store (`client-jwks:<hash of URL>`, five minutes; fetched again
 * for an unknown `kid` once a minute old). A fetch that fails, or finds no JWK set, is
 * remembered for {@link JWKS_FAILURE_SECONDS} and logged once: until then the URL is not
 * fetched again, so a client whose keys are down cannot make this server fetch on every
 * request. The failure is kept in the store (`client-jwks:<hash>:failed`, across instances
 * sharing it) and in this instance's memory (at most {@link MAX_FAILURES_IN_MEMORY} URLs, the
 * oldest forgotten first), so it holds on this instance even when the clients' share of the
 * store is full, which anonymous registrations can make it.
 * Requests on this instance that need the same URL while this instance fetches it wait for
 * that fetch (each instance fetches on its own). A fetch that succeeds after a failure this
 * instance saw removes that failure.
 */
export function jwksUriKeys(store: OAuthStore, fetcher: () => ClientDocumentFetcher, now: () => number, log: ToolLogger): JwksUriKeys {
  /** The fetch under way for each URL: later requests for it share its outcome. */
  const fetching = new Map<string, Promise<Outcome>>();
  /** The failures this instance recorded, by URL, oldest first: what the client is told, and until when. */
  const failures = new Map<string, { error: string; until: number }>();

  const remember = (jwksUri: string, error: string): void => {
    failures.delete(jwksUri);
    if (failures.size >= MAX_FAILURES_IN_MEMORY) failures.delete(failures.keys().next().value!);
    failures.set(jwksUri, { error, until: now() + JWKS_FAILURE_SECONDS * 1000 });
  };

  const fetchKeys = async (jwksUri: string, cacheKey: string, clientId: string): Promise<Outcome> => {
    const seen = failures.get(jwksUri);
    if (seen && now() < seen.until) return { error: seen.error };
    const failedKey = `${cacheKey}:failed`;
    const failedRaw = await store.get(failedKey);
    if (failedRaw !== undefined) return { error: (JSON.parse(failedRaw) as { error: string }).error };
    const fail = async (told: string, logged: string): Promise<Outcome> => {
      remember(jwksUri, told);
      const shared = await keep(failedKey, JSON.stringify({ error: told }), JWKS_FAILURE_SECONDS);
      const pause = shared ? `it is not fetched again for ${JWKS_FAILURE_SECONDS} s` : `this instance does not fetch it again for ${JWKS_FAILURE_SECONDS} s; the store is full, so other instances may`;
      log.warn(`toolwright oauth: the jwks_uri ${jwksUri} of client ${clientId} ${logged} (${pause})`);
      return { error: told };
    };
    let body: string | undefined;
    try {
      body = (await fetcher()(new URL(jwksUri))).body;
    } catch (error) {
      return fail(refusalForClient('its jwks_uri', error), `could not be fetched: ${(error as Error)?.message ?? String(error)}`);
    }
    let set: unknown;
    try {
      set = JSON.parse(body ?? '');
    } catch {
      return fail('its jwks_uri is not JSON', 'answered what is not JSON');
    }
    const keys = (set as { keys?: unknown })?.keys;
    if (!Array.isArray(keys) || !keys.every((key) => typeof key === 'object' && key !== null && !Array.isArray(key))) {
      return fail('its jwks_uri holds no JWK set ({ "keys": [...] })', 'holds no JWK set');
    }
    await keep(cacheKey, JSON.stringify({ keys, fetchedAt: now() }), JWKS_CACHE_SECONDS);
    if (seen) {
      // Only after a failure this instance saw: no store round trip on every fetch.
      failures.delete(jwksUri);
      await store.delete(failedKey);
    }
    return { keys: keys as Jwk[] };
  };

  /** Writes a cache entry; false when the store is full. The cache saves fetches only: what was just fetched (or refused) still answers this request. */
  const keep = async (key: string, value: string, ttlSeconds: number): Promise<boolean> => {
    try {
      await store.set(key, value, ttlSeconds);
      return true;
    } catch (error) {
      if (storeFullRetryAfter(error) === undefined) throw error;
      return false;
    }
  };

  return async (jwksUri, clientId, kid) => {
    const cacheKey = `client-jwks:${await sha256(jwksUri)}`;
    const cachedRaw = await store.get(cacheKey);
    const cached = cachedRaw ? (JSON.parse(cachedRaw) as { keys: Jwk[]; fetchedAt: number }) : undefined;
    const known = cached && (kid === undefined || cached.keys.some((key) => key.kid === kid));
    if (cached && (known || now() - cached.fetchedAt < JWKS_REFETCH_SECONDS * 1000)) return { keys: cached.keys };
    const running = fetching.get(jwksUri);
    if (running) return running;
    const attempt = fetchKeys(jwksUri, cacheKey, clientId).finally(() => fetching.delete(jwksUri));
    fetching.set(jwksUri, attempt);
    return attempt;
  };
}
