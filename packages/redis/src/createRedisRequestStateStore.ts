import type { UsedStateStore } from '@toolwright/server';
import type { RedisCluster } from './createRedisCluster';
import { runCommand } from './runCommand';

/**
 * The `requestState.usedStates` store on the cluster's Redis: a 2026-07-28 round state is
 * accepted once across every instance, where each instance alone would accept a state
 * replayed to it until it expires. One key per accepted state (`rs:<id>`), set only if new,
 * expiring with the state. While Redis is unreachable the round is refused with an error that
 * says so (a `RedisUnavailableError`).
 * A cluster from `createRedisCluster` brings one (`cluster.usedStates`), which an app
 * serving HTTP with that cluster uses by default; call this for an app that reaches Redis
 * without serving through the cluster.
 */
export function createRedisRequestStateStore(cluster: Pick<RedisCluster, 'redis' | 'prefix'>): UsedStateStore {
  const { redis, prefix } = cluster;
  return {
    // Every instance on this Redis refuses a state one of them claimed.
    shared: true,
    async claim(id, expiresAt) {
      const ttl = Math.max(1, Math.ceil(expiresAt - Date.now()));
      return (await runCommand(() => redis.set(`${prefix}rs:${id}`, '1', 'PX', ttl, 'NX'))) === 'OK';
    },
  };
}
