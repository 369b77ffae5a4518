import { ConfigError } from '@toolwright/core';
import type { RedisClusterOptions } from './createRedisCluster';

/** The numeric options of `createRedisCluster`, each with its unit and default, as the message names them. */
const LIMITS = [
  ['maxEventsPerSession', 'events', 1000],
  ['maxEventBytesPerSession', 'bytes', 4 * 1024 * 1024],
  ['maxEventBytesTotal', 'bytes', 256 * 1024 * 1024],
  ['maxSubscriptionsPerSession', 'subscriptions', 100],
  ['maxSubscriptionUriBytes', 'bytes', 2048],
  ['eventTtlMs', 'milliseconds', 30 * 60_000],
  ['getStreamClaimMs', 'milliseconds', 15_000],
  ['commandTimeoutMs', 'milliseconds', 2000],
  ['connectTimeoutMs', 'milliseconds', 5000],
] as const;

/**
 * Refuses, before it connects, a `createRedisCluster` limit that is not a positive whole number.
 * Redis would take a negative TTL as "delete now" and a fraction as an error on every command,
 * and a limit under 1 would keep nothing; the message names the option, the value and the fix.
 */
export function checkClusterOptions(options: RedisClusterOptions): void {
  for (const [name, unit, byDefault] of LIMITS) {
    const value: unknown = options[name];
    if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0)) continue;
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value === 'number' ? String(value) : `a ${value === null ? 'null' : typeof value}`;
    throw new ConfigError(
      `@toolwright/redis: createRedisCluster's ${name} must be a positive whole number (${unit}), got ${shown}. Set it to a number such as ${name}: ${byDefault}, or leave it out for that default.`,
    );
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new ConfigError(`@toolwright/redis: createRedisCluster's prefix must be a string, got a ${typeof options.prefix}. Set e.g. prefix: 'myapp:', or leave it out for 'toolwright:'.`);
  }
}
