/**
 * @toolwright/redis — run several instances of a Toolwright app behind a load balancer:
 * sessions, resumable events and notifications shared through Redis.
 */
export { createRedisCluster } from './createRedisCluster';
export { RedisUnavailableError } from './RedisUnavailableError';
export type { RedisCluster, RedisClusterOptions } from './createRedisCluster';
export { createRedisMiddlewareStores } from './createRedisMiddlewareStores';
export type { RedisMiddlewareStoreOptions } from './createRedisMiddlewareStores';
export { createRedisRequestStateStore } from './createRedisRequestStateStore';
export { RedisTaskStore } from './RedisTaskStore';
export type { RedisTaskStoreOptions } from './RedisTaskStore';
export { createRedisOAuthStore } from './createRedisOAuthStore';
export type { RedisOAuthStore } from './createRedisOAuthStore';
