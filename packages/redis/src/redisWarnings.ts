import type { RedisOptions } from 'ioredis';
import { maskUrl } from './connectRedis';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|::1|\[::1\])$/i;

/**
 * What `createRedisCluster` warns about at startup: a Redis on another host reached without
 * TLS (the cluster's state crosses the network in clear) or without credentials (whoever
 * reaches it may read and write that state). A Redis on this host (loopback, a Unix socket)
 * is left alone. The URL in a warning has its password masked.
 */
export function redisWarnings(url: string, options: RedisOptions = {}): string[] {
  let parsed: URL | undefined;
  try {
    parsed = /^rediss?:\/\//i.test(url) ? new URL(url) : undefined;
  } catch {
    parsed = undefined;
  }
  // ioredis takes the URL's host over options.host.
  const host = parsed?.hostname || options.host || '';
  if (options.path || url.startsWith('/') || host === '' || LOOPBACK.test(host)) return [];
  const where = maskUrl(url);
  const warnings: string[] = [];
  if (!/^rediss:/i.test(url) && !options.tls)
    warnings.push(
      `Redis at ${where} is reached without TLS: sessions, events and ctx.session values cross the network in clear. Use rediss:// (see the deployment guide, "Who may read and write Redis").`,
    );
  if (!parsed?.password && !parsed?.username && !options.password && !options.username)
    warnings.push(
      `Redis at ${where} is reached without credentials: whoever reaches it can read and change every session. Give the app an ACL user limited to its prefix (redis://user:password@host:port or redis.username and redis.password).`,
    );
  return warnings;
}
