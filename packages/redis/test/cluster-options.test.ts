import { ConfigError } from '@toolwright/core';
import { createRedisCluster, type RedisClusterOptions } from '@toolwright/redis';

/**
 * createRedisCluster's limits are checked before it connects (no Redis runs here): each bad value
 * is refused with a ConfigError naming the option, the value and what to write instead. They used
 * to reach Redis as given (a negative TTL deletes at once; a fraction fails every command).
 */
describe("createRedisCluster's options", () => {
  it.each<[string, RedisClusterOptions, string]>([
    [
      'a negative eventTtlMs',
      { eventTtlMs: -1 },
      "@toolwright/redis: createRedisCluster's eventTtlMs must be a positive whole number (milliseconds), got -1. Set it to a number such as eventTtlMs: 1800000, or leave it out for that default.",
    ],
    [
      'a fractional getStreamClaimMs',
      { getStreamClaimMs: 1.5 },
      "@toolwright/redis: createRedisCluster's getStreamClaimMs must be a whole number from 1 to 2147483647 (milliseconds), got 1.5. Set it to a number such as getStreamClaimMs: 15000, or leave it out for that default.",
    ],
    [
      "a maxEventBytesTotal of '256mb'",
      { maxEventBytesTotal: '256mb' as never },
      '@toolwright/redis: createRedisCluster\'s maxEventBytesTotal must be a positive whole number (bytes), got "256mb". Set it to a number such as maxEventBytesTotal: 268435456, or leave it out for that default.',
    ],
    [
      'a maxSubscriptionsPerSession of 0',
      { maxSubscriptionsPerSession: 0 },
      "@toolwright/redis: createRedisCluster's maxSubscriptionsPerSession must be a positive whole number (subscriptions), got 0. Set it to a number such as maxSubscriptionsPerSession: 100, or leave it out for that default.",
    ],
    [
      'a commandTimeoutMs past the longest timer',
      { commandTimeoutMs: 2 ** 31 },
      "@toolwright/redis: createRedisCluster's commandTimeoutMs must be a whole number from 1 to 2147483647 (milliseconds), got 2147483648. Set it to a number such as commandTimeoutMs: 2000, or leave it out for that default.",
    ],
    [
      'a prefix that is not a string',
      { prefix: 7 as never },
      "@toolwright/redis: createRedisCluster's prefix must be a string, got a number. Set e.g. prefix: 'myapp:', or leave it out for 'toolwright:'.",
    ],
  ])('refuses %s before it connects', async (_, options, message) => {
    // An address nothing listens on: had the check not refused first, the error would be about reaching Redis.
    const made = createRedisCluster({ url: 'redis://127.0.0.1:1', connectTimeoutMs: 500, logWrite: () => {}, ...options });
    await expect(made).rejects.toThrow(ConfigError);
    await expect(made).rejects.toThrow(message);
  });
});
