import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { cache, rateLimit } from '@toolwright/server/middleware';
import { createRedisCluster, createRedisMiddlewareStores, type RedisCluster } from '@toolwright/redis';

// #region cluster
export async function serveScaledOut(app: App, port = 3000) {
  // One per process; every instance of the app points at the same Redis and prefix.
  const cluster = await createRedisCluster({
    url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix: 'notes:', // one prefix per app sharing this Redis
  });
  const listener = await app.listen({
    transport: 'http',
    port,
    cluster, // sessions, events, notifications, round trips and ctx.session in Redis
    sessions: { idleTimeoutMs: 30 * 60_000, maxSessions: 50_000 }, // across the cluster
    exitOnSignal: false,
  });
  return {
    url: listener.url,
    async close() {
      await listener.close(); // drains running calls first
      await cluster.close();
    },
  };
}
// #endregion cluster

// #region session-state
export class CartTools {
  @Tool({ description: "Adds an item to this session's cart and returns the cart." })
  async addToCart(@Param('item') item: string, @Ctx() ctx: ToolContext) {
    // undefined on stateless HTTP and 2026-07-28 requests, which have no session
    if (!ctx.session) return 'This server keeps no sessions: call with a session to use a cart.';
    const cart = (await ctx.session.get<string[]>('cart')) ?? [];
    cart.push(item);
    await ctx.session.set('cart', cart); // JSON; kept as long as the session
    return cart.join(', ');
  }
}
// #endregion session-state

// #region middleware-stores
export function createLimitedApp(cluster: RedisCluster) {
  const stores = createRedisMiddlewareStores(cluster); // keys under the cluster's prefix, each with a TTL
  return createApp({
    name: 'notes',
    version: '1.0.0',
    tools: [CartTools],
    middleware: [
      cache({ ttlMs: 60_000, store: stores.cache }), // outermost: a cached answer spends no token
      rateLimit({ capacity: 20, refillPerSecond: 2, store: stores.rateLimit }), // one bucket per caller, cluster-wide
    ],
  });
}
// #endregion middleware-stores
