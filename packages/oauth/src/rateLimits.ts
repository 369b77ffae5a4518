import { ConfigError } from '@toolwright/core';
import type { RateLimitStore } from '@toolwright/server/middleware';

/** How fast one client address may call an endpoint: a token bucket of `burst` requests, refilled at `perMinute`. */
export interface OAuthRate {
  /** Requests one address may send at once. */
  burst: number;
  /** Requests it may send per minute once the burst is spent. */
  perMinute: number;
}

/**
 * Rate limits per client address on the endpoints anyone may call without a token. Past a
 * limit the answer is HTTP 429 with `Retry-After` (JSON at `/register`, `/token` and
 * `/revoke`; a page at `/authorize`, the consent form and the callback).
 */
export interface OAuthRateLimitOptions {
  /** `/register` (dynamic client registration). Default `{ burst: 10, perMinute: 10 }`; `false`: no limit. */
  register?: OAuthRate | false;
  /** `/token` and `/revoke`. Default `{ burst: 60, perMinute: 120 }`; `false`: no limit. */
  token?: OAuthRate | false;
  /** `/authorize` (GET), its consent form's POST and the upstream callback. Default `{ burst: 30, perMinute: 60 }`; `false`: no limit. */
  authorize?: OAuthRate | false;
  /**
   * Where the buckets live. Default: this instance's memory. Give every instance the same
   * shared store to limit across them: `createRedisMiddlewareStores(cluster).rateLimit` from
   * `@toolwright/redis` (one atomic Lua step per request).
   */
  store?: RateLimitStore;
  /**
   * The client address a request is counted by. Default: the connection's remote address on
   * the node listener. Behind a reverse proxy every client has the proxy's address: return the
   * client's from the header your proxy overwrites (e.g. the last `X-Forwarded-For` entry it
   * adds). A fetch `Request` carries no address: on Deno, Bun and Workers return it from the
   * runtime (Workers: `request.headers.get('cf-connecting-ip')`), or every caller shares one bucket.
   * Loopback addresses are not limited (a local client, or a proxy on this machine whose
   * clients you have not told apart).
   */
  clientAddressOf?: (request: Request) => string | undefined;
}

export type RateLimitedEndpoint = 'register' | 'token' | 'authorize';

const DEFAULTS: Readonly<Record<RateLimitedEndpoint, OAuthRate>> = {
  register: { burst: 10, perMinute: 10 },
  token: { burst: 60, perMinute: 120 },
  authorize: { burst: 30, perMinute: 60 },
};

/** Takes one request from `address`'s bucket of `endpoint`: 0 when it may go on, else the seconds to wait. */
export type RateLimiter = (endpoint: RateLimitedEndpoint, address: string | undefined) => Promise<number>;

const MAX_MEMORY_BUCKETS = 10_000;

export function createRateLimiter(options: OAuthRateLimitOptions | false | undefined, now: () => number): RateLimiter {
  if (options === false) return async () => 0;
  const rates = new Map<RateLimitedEndpoint, OAuthRate>();
  for (const endpoint of Object.keys(DEFAULTS) as RateLimitedEndpoint[]) {
    const given = options?.[endpoint];
    if (given === false) continue;
    const rate = given ?? DEFAULTS[endpoint];
    if (!(rate.burst >= 1 && rate.perMinute > 0 && Number.isFinite(rate.burst) && Number.isFinite(rate.perMinute))) {
      throw new ConfigError(
        `Toolwright oauth: rateLimit.${endpoint} needs burst >= 1 and perMinute > 0, got ${JSON.stringify(rate)}. ` +
          `Give both as numbers, e.g. rateLimit: { ${endpoint}: { burst: ${DEFAULTS[endpoint].burst}, perMinute: ${DEFAULTS[endpoint].perMinute} } } (the default), or ${endpoint}: false to turn this limit off.`,
      );
    }
    rates.set(endpoint, rate);
  }
  const store = options?.store ?? memoryBuckets();
  return async (endpoint, address) => {
    const rate = rates.get(endpoint);
    if (!rate || (address !== undefined && isLoopback(address))) return 0;
    const refillPerSecond = rate.perMinute / 60;
    const key = `oauth:${endpoint}:${address ?? 'unknown address'}`;
    const tokens = store.take ? await store.take(key, { capacity: rate.burst, refillPerSecond, now: now() }) : await takeWithGetSet(store, key, rate.burst, refillPerSecond, now());
    return tokens >= 1 ? 0 : Math.max(1, Math.ceil((1 - tokens) / refillPerSecond));
  };
}

/** For a store without `take`: read, refill, spend, write (not atomic across instances; see RateLimitStore). */
async function takeWithGetSet(store: RateLimitStore, key: string, capacity: number, refillPerSecond: number, now: number): Promise<number> {
  const bucket = await store.get(key);
  const tokens = bucket ? Math.min(capacity, bucket.tokens + (Math.max(0, now - bucket.updatedAt) / 1000) * refillPerSecond) : capacity;
  await store.set(key, { tokens: tokens >= 1 ? tokens - 1 : tokens, updatedAt: now });
  return tokens;
}

/** The default store: buckets in this process, the least recently used forgotten past 10 000 (a forgotten one comes back full). */
function memoryBuckets(): RateLimitStore {
  const buckets = new Map<string, { tokens: number; updatedAt: number }>();
  return {
    get: (key) => buckets.get(key),
    set: (key, bucket) => void buckets.set(key, bucket),
    take(key, rule) {
      const held = buckets.get(key);
      const tokens = held ? Math.min(rule.capacity, held.tokens + (Math.max(0, rule.now - held.updatedAt) / 1000) * rule.refillPerSecond) : rule.capacity;
      buckets.delete(key); // re-inserted last: the map stays in least-recently-used order
      buckets.set(key, { tokens: tokens >= 1 ? tokens - 1 : tokens, updatedAt: rule.now });
      if (buckets.size > MAX_MEMORY_BUCKETS) buckets.delete(buckets.keys().next().value!);
      return tokens;
    },
  };
}

function isLoopback(address: string): boolean {
  const plain = address.replace(/^\[|\]$/g, '').replace(/^::ffff:/i, '');
  return plain === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(plain) || plain === 'localhost';
}
