import type { ToolLogger } from '@toolwright/core';
import { checkClientMetadata } from '../clientMetadata';
import type { OAuthClient } from '../OAuthClient';
import type { OAuthStore } from '../OAuthStore';
import { sha256 } from '../webCrypto';
import type { ClientDocumentFetcher } from './ClientDocumentFetcher';
import { refusalForClient } from './refusalForClient';

/** Client ID metadata documents: how they are fetched and how long they are kept. */
export interface ClientDocumentOptions {
  /** Fetches a document. Default: `nodeDocumentFetcher()` on node, `fetchDocumentFetcher()` on Deno, Bun and Workers. */
  fetcher?: ClientDocumentFetcher;
  /** A document is kept at least this long, whatever its Cache-Control says (seconds). Default 60. */
  minCacheSeconds?: number;
  /** And at most this long before it is revalidated (with If-None-Match when it had an ETag). Default 86400. */
  maxCacheSeconds?: number;
  /** When the answer said nothing about caching. Default 300. */
  defaultCacheSeconds?: number;
  /** A refused document is not fetched again for this long, so a bad client cannot make this server fetch in a loop. Default 30. */
  failureCacheSeconds?: number;
}

type Cached = { client?: OAuthClient; error?: string; etag?: string; freshUntil: number };

/** Whether `clientId` is meant as a client ID metadata document URL (an https URL). */
export function isDocumentClientId(clientId: string): boolean {
  return clientId.startsWith('https://');
}

/** Why `clientId` is not a valid metadata document URL (https, a path, no fragment or credentials, normalized), or undefined. */
export function documentUrlProblem(clientId: string): string | undefined {
  let url: URL;
  try {
    url = new URL(clientId);
  } catch {
    return 'client_id is not a valid URL';
  }
  if (url.protocol !== 'https:') return 'a client ID metadata document URL must use https';
  if (url.pathname === '/' || url.pathname === '') return 'a client ID metadata document URL must have a path';
  if (url.hash || clientId.includes('#')) return 'a client ID metadata document URL must not have a fragment';
  if (url.username || url.password) return 'a client ID metadata document URL must not carry credentials';
  if (url.href !== clientId || clientId.length > 2000) return 'a client ID metadata document URL must be normalized (no dot segments, lower-case scheme and host) and at most 2000 characters';
  return undefined;
}

/**
 * Resolves a client ID that is a URL to the client its metadata document describes: fetched
 * through the guarded fetcher, checked (its `client_id` must be the URL itself; no secrets),
 * cached in the store for as long as its Cache-Control allows within the bounds, then
 * revalidated. A fetch that fails is logged to `log` with its details; the client is told only
 * what it can act on (`refusalForClient`).
 */
export function clientDocuments(store: OAuthStore, fetcher: ClientDocumentFetcher, options: ClientDocumentOptions, now: () => number, log: ToolLogger) {
  const minCache = options.minCacheSeconds ?? 60;
  const maxCache = options.maxCacheSeconds ?? 86_400;
  const defaultCache = options.defaultCacheSeconds ?? 300;
  const failureCache = options.failureCacheSeconds ?? 30;

  /**
   * Kept while fresh; a document with an ETag also for `maxCache` after that, to be revalidated
   * with If-None-Match. A refusal or a document without an ETag is of no use once stale, so
   * each URL a caller makes up costs the store an entry only for its freshness (a refusal:
   * `failureCache`), not for a day.
   */
  const save = async (key: string, entry: Cached) => {
    const freshSeconds = Math.max(1, Math.ceil((entry.freshUntil - now()) / 1000));
    await store.set(key, JSON.stringify(entry), entry.client && entry.etag ? freshSeconds + maxCache : freshSeconds);
  };

  return async function lookup(clientId: string): Promise<{ client: OAuthClient } | { error: string }> {
    const problem = documentUrlProblem(clientId);
    if (problem) return { error: problem };
    const key = `cimd:${await sha256(clientId)}`;
    const raw = await store.get(key);
    const cached = raw ? (JSON.parse(raw) as Cached) : undefined;
    if (cached && cached.freshUntil > now()) return cached.client ? { client: cached.client } : { error: cached.error ?? 'the client ID metadata document was refused' };

    let fetched;
    try {
      fetched = await fetcher(new URL(clientId), cached?.client ? cached.etag : undefined);
    } catch (error) {
      log.warn(`toolwright oauth: the client ID metadata document ${clientId} could not be fetched: ${(error as Error)?.message ?? String(error)}`);
      const told = refusalForClient('the client ID metadata document', error);
      await save(key, { error: told, freshUntil: now() + failureCache * 1000 });
      return { error: told };
    }
    const lifetime = Math.min(maxCache, Math.max(minCache, fetched.maxAgeSeconds ?? defaultCache)) * 1000;
    if (fetched.status === 304 && cached?.client) {
      await save(key, { ...cached, freshUntil: now() + lifetime });
      return { client: cached.client };
    }
    let document: unknown;
    try {
      document = JSON.parse(fetched.body ?? '');
    } catch {
      document = undefined;
    }
    // What follows may quote the document (a redirect URI), only once it claims to be this client's own: it was fetched from a public address, at the URL it names.
    const refuse = async (reason: string) => {
      const error = `the client ID metadata document was refused: ${reason}`;
      await save(key, { error, freshUntil: now() + failureCache * 1000 });
      return { error };
    };
    if (typeof document !== 'object' || document === null) return refuse('it is not a JSON object');
    if (!Object.hasOwn(document, 'client_id') || (document as { client_id?: unknown }).client_id !== clientId) return refuse('its client_id must be the URL it was fetched from');
    const checked = checkClientMetadata(document, { documentOnly: true });
    if (!checked.ok) return refuse(checked.description);
    const client: OAuthClient = { ...checked.client, clientId, source: 'document' };
    await save(key, { client, etag: fetched.etag, freshUntil: now() + lifetime });
    return { client };
  };
}
