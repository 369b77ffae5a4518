import type { Redis } from 'ioredis';
import type { ClusterLog } from './clusterLog';

/** Logs that Redis is unreachable once per outage (the first error of either connection), and that it is reachable again once both connections are ready. */
export function reportOutages(redis: Redis, subscriber: Redis, log: ClusterLog): void {
  let down = false;
  const report = (error: Error) => {
    if (down) return;
    down = true;
    log('error', 'redis unreachable', { error: error.message });
  };
  for (const connection of [redis, subscriber]) {
    connection.on('error', report);
    connection.on('ready', () => {
      if (!down || redis.status !== 'ready' || subscriber.status !== 'ready') return;
      down = false;
      log('info', 'redis reachable again');
    });
  }
}
