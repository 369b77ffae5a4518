import { readFileSync } from 'node:fs';
import { createRedisCluster } from '@toolwright/redis';

// #region secure
export function connectToRedis() {
  return createRedisCluster({
    url: process.env.REDIS_URL ?? 'rediss://redis.internal:6380', // rediss:// is TLS
    redis: {
      // An ACL user that may touch this app's prefix only; the password from your secret store.
      username: 'notes',
      password: process.env.REDIS_PASSWORD,
      // The CA that signed Redis's certificate, when it is a private one. Certificates are verified.
      tls: { ca: readFileSync(process.env.REDIS_CA_FILE ?? '/etc/redis/ca.crt') },
    },
    prefix: 'notes:',
  });
}
// #endregion secure
