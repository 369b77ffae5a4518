import { ConfigError } from '@toolwright/core';
import type { RedisClusterOptions } from './createRedisCluster';

/** The longest delay a timer takes: Node fires a longer one after 1 ms. */
const LONGEST_TIMER_MS = 2_147_483_647;

/** The numeric options of `createRedisCluster`, each with its unit, default and greatest value, as the message names them. */
const LIMITS = [
  ['maxEventsPerSession', 'events', 1000, Number.MAX_SAFE_INTEGER],
  ['maxEventBytesPerSession', 'bytes', 4 * 1024 * 1024, Number.MAX_SAFE_INTEGER],
  ['maxEventBytesTotal', 'bytes', 256 * 1024 * 1024, Number.MAX_SAFE_INTEGER],
  ['maxSubscriptionsPerSession', 'subscriptions', 100, Number.MAX_SAFE_INTEGER],
  ['maxSubscriptionUriBytes', 'bytes', 2048, Number.MAX_SAFE_INTEGER],
  ['eventTtlMs', 'milliseconds', 30 * 60_000, Number.MAX_SAFE_INTEGER],
  ['getStreamClaimMs', 'milliseconds', 15_000, LONGEST_TIMER_MS],
  ['commandTimeoutMs', 'milliseconds', 2000, LONGEST_TIMER_MS],
  ['connectTimeoutMs', 'milliseconds', 5000, LONGEST_TIMER_MS],
] as const;

/**
 * Refuses, before it connects, a `createRedisCluster` limit that is not a positive whole number.
 * Redis would take a negative TTL as "delete now" and a fraction as an error on every command,
 * and a limit under 1 would keep nothing; the message names the option, the value and the fix.
 */
export function checkClusterOptions(options: RedisClusterOptions): void {
  for (const [name, unit, byDefault, max] of LIMITS) {
    const value: unknown = options[name];
    if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 && value <= max)) continue;
    const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : typeof value === 'number' ? String(value) : `a ${value === null ? 'null' : typeof value}`;
    const range = max === Number.MAX_SAFE_INTEGER ? 'a positive whole number' : `a whole number from 1 to ${max}`;
    throw new ConfigError(
      `@toolwright/redis: createRedisCluster's ${name} must be ${range} (${unit}), got ${shown}. Set it to a number such as ${name}: ${byDefault}, or leave it out for that default.`,
    );
  }
  if (options.prefix !== undefined && typeof options.prefix !== 'string') {
    throw new ConfigError(`@toolwright/redis: createRedisCluster's prefix must be a string, got a ${typeof options.prefix}. Set e.g. prefix: 'myapp:', or leave it out for 'toolwright:'.`);
  }
}
