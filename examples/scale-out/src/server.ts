import { createRedisCluster } from '@toolwright/redis';
import { createBoardApp } from './app';

/**
 * One instance: `node dist/server.js --port 3001` with REDIS_URL (default
 * redis://127.0.0.1:6379). Run several; put any load balancer in front (no sticky sessions).
 */
async function main(): Promise<void> {
  const at = process.argv.indexOf('--port');
  const port = at === -1 ? 3001 : Number(process.argv[at + 1]);
  // STORES=memory: one instance with the in-memory stores (for comparison; no sharing).
  const cluster = process.env.STORES === 'memory' ? undefined : await createRedisCluster({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: 'scale-out:' });
  const app = await createBoardApp();
  const listener = await app.listen({ transport: 'http', port, cluster, exitOnSignal: false, logLevel: 'warn' });
  process.stderr.write(`${process.env.INSTANCE ?? 'instance'} listening on ${listener.url}\n`);
  const stop = async () => {
    await listener.close();
    await cluster?.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

main().catch((error) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});
