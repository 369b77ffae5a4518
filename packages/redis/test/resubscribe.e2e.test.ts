import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { GET_STREAM_ID } from '@toolwright/server/http';
import { Redis } from 'ioredis';
import { eventually } from './fixtures/instances';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { unhandledRejectionsDuring } from './fixtures/unhandledRejectionsDuring';

/** The cluster's subscriber connection subscribes again itself when Redis comes back (ClusterChannels.open). */
describe("a cluster's subscriptions across a Redis restart", () => {
  let redis: RedisServer;
  let a: RedisCluster;
  let b: RedisCluster;
  beforeAll(async () => {
    redis = await startRedisServer({ persist: true });
    a = await createRedisCluster({ url: redis.url, prefix: 'resub:', logWrite: () => {} });
    b = await createRedisCluster({ url: redis.url, prefix: 'resub:', logWrite: () => {} });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await redis?.close();
  });

  it('hears changes, relayed answers and a watched session again once Redis is back', async () => {
    const changes: unknown[] = [];
    b.onChange((change) => changes.push(change));
    const relayed: string[] = [];
    await b.onRelay('instance-b', (sessionId) => relayed.push(sessionId));
    await b.eventStore('session-1').watch!(GET_STREAM_ID, () => {});
    const channels = async () => ((await a.redis.pubsub('CHANNELS', 'resub:*')) as string[]).sort();
    const before = await channels();
    expect(before).toEqual(expect.arrayContaining(['resub:ev:session-1', 'resub:rt:instance-b', 'resub:rt:*']));

    await redis.stop();
    await redis.start();
    await eventually(() => a.connected && b.connected, 5000, 'both reconnected');
    await eventually(async () => JSON.stringify(await channels()) === JSON.stringify(before), 5000, 'every channel subscribed again');
    await eventually(
      async () => {
        await a.publish({ list: 'tools' });
        return changes.length > 0;
      },
      5000,
      'a change published after the restart to be heard',
    );
    expect(changes[0]).toEqual({ list: 'tools' });
    await eventually(
      async () => {
        await a.relay('instance-b', 'session-2', { jsonrpc: '2.0', id: 1, result: {} });
        return relayed.includes('session-2');
      },
      5000,
      'an answer relayed after the restart to be heard',
    );
  });
});

describe('a cluster closed while its subscriber reconnects', () => {
  it('leaves no unhandled rejection (Redis just back, its resubscription unanswered)', async () => {
    const redis = await startRedisServer({ persist: true });
    const cluster = await createRedisCluster({ url: redis.url, prefix: 'resub-close:', logWrite: () => {} });
    // Closed between the subscriber's reconnection ready check (INFO, sent) and the answer: what a close() right after
    // Redis came back meets. The subscriber is the connection with an offline queue.
    const proto = Redis.prototype as unknown as { _readyCheck(this: Redis, callback: unknown): void };
    const readyCheck = proto._readyCheck;
    let closed: Promise<void> | undefined;
    proto._readyCheck = function (callback) {
      readyCheck.call(this, callback);
      if (this.options.enableOfflineQueue) closed ??= cluster.close();
    };
    try {
      const unhandled = await unhandledRejectionsDuring(async () => {
        await redis.stop();
        await redis.start();
        await eventually(() => closed !== undefined, 5000, 'the close during the reconnection');
        await closed;
      });
      expect(unhandled).toEqual([]);
    } finally {
      proto._readyCheck = readyCheck;
      await cluster.close();
      await redis.close();
    }
  });
});
