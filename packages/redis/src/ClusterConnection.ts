import type { ClusterKeys } from './clusterKeys';
import type { ClusterLog } from './clusterLog';
import type { ClusterRedis } from './ClusterRedis';

/** What every part of a Redis cluster works with: the command connection, the key names, this process's instance id and the log. */
export interface ClusterConnection {
  readonly redis: ClusterRedis;
  readonly keys: ClusterKeys;
  /** This process's instance id: the origin of what it publishes. */
  readonly origin: string;
  readonly log: ClusterLog;
}
