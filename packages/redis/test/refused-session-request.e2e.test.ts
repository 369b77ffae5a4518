import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type AppOptions } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { serveFetch } from '../../server/test/fixtures/serveFetch';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startFetchInstances, type FetchInstance } from './fixtures/fetchInstances';
import { eventually, startInstances, stopInstances, type Instance } from './fixtures/instances';
import { HEADERS, openRawSession, rpc } from './fixtures/sse';

/** Calls of `wait` that ended because the client cancelled them. */
const cancelled: string[] = [];

class Waiter {
  @Tool({ description: 'Waits until the call is cancelled.' })
  wait(@Ctx() ctx: ToolContext) {
    return new Promise<string>((resolve) => ctx.signal.addEventListener('abort', () => resolve(`cancelled ${cancelled.push('wait')}`)));
  }

  @Tool({ description: 'Answers at once.' }) ping() {
    return 'pong';
  }
}

const app: AppOptions = { name: 'refused', version: '1', tools: [Waiter] };
/** Supported by the server, but not the version the sessions here negotiate (2025-11-25). */
const OTHER_VERSION = '2025-06-18';
const UNSUPPORTED = '1999-01-01';
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const remove = (url: string, session: string, version: string) => fetch(url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': version } });
const answered = async (response: Response) => ({ status: response.status, body: await response.text() });
const toolsList = async (url: string, session: string) => (await rpc(url, session, { jsonrpc: '2.0', id: 7, method: 'tools/list' })).status;

/**
 * A request naming a session that the endpoint refuses (here: an MCP-Protocol-Version other than
 * the one the session negotiated) changes nothing in a cluster, as it changes nothing without one:
 * a refused DELETE ends no session, a refused POST relays nothing to other instances. Two
 * instances sharing a real redis-server, and one without a cluster for the answer to compare,
 * for the node listener and the fetch handler alike.
 */
describe('a refused request changes nothing of its session in a cluster', () => {
  let redis: RedisServer;
  let node: Instance[];
  let fetchers: FetchInstance[];
  const alone: { url: string; close(): Promise<void> }[] = [];
  let targets: Record<string, { cluster: [string, string]; alone: string }>;

  beforeAll(async () => {
    redis = await startRedisServer();
    node = await startInstances(2, redis.url, app);
    fetchers = await startFetchInstances(2, redis.url, `refused-${randomUUID().slice(0, 8)}:`, app);
    const listener = await (await createApp(app)).listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    alone.push({ url: listener.url, close: () => listener.close() });
    const handler = createFetchHandler(await createApp(app));
    const served = await serveFetch(handler);
    alone.push({ url: `${served.url}/mcp`, close: async () => (await handler.close({ drainTimeoutMs: 0 }), await served.close()) });
    targets = {
      'node listener': { cluster: [node[0].url, node[1].url], alone: alone[0].url },
      'fetch handler': { cluster: [fetchers[0].url, fetchers[1].url], alone: alone[1].url },
    };
  });
  afterAll(async () => {
    for (const instance of [...(fetchers ?? []), ...alone]) await instance.close();
    await stopInstances(node ?? []);
    await redis?.close();
  });

  it.each(['node listener', 'fetch handler'])(
    'a DELETE with a wrong protocol version, through the %s instance that did not serve the session, is refused as without a cluster and ends nothing',
    async (name) => {
      const { cluster, alone: single } = targets[name];
      const [opener, other] = cluster;
      const session = await openRawSession(opener);
      // One the session did not negotiate, and one the server does not support.
      for (const version of [OTHER_VERSION, UNSUPPORTED]) {
        const expected = await answered(await remove(single, await openRawSession(single), version));
        expect(expected.status).toBe(400);

        expect(await answered(await remove(other, session, version))).toEqual(expected);
        expect(await toolsList(other, session)).toBe(200);
        expect(await toolsList(opener, session)).toBe(200);
      }

      expect((await remove(other, session, '2025-11-25')).status).toBe(200);
      expect(await toolsList(opener, session)).toBe(404);
      expect(await toolsList(other, session)).toBe(404);
    },
  );

  it.each(['node listener', 'fetch handler'])('a POST with another protocol version, through the %s instance that does not run the call, cancels no call on the other', async (name) => {
    const [opener, other] = targets[name].cluster;
    const session = await openRawSession(opener);
    const before = cancelled.length;
    // Its SSE response has started once the call reached the server.
    const call = await rpc(opener, session, { jsonrpc: '2.0', id: 'long', method: 'tools/call', params: { name: 'wait', arguments: {} } });
    expect(call.status).toBe(200);
    const cancel = (version: string) =>
      fetch(other, {
        method: 'POST',
        headers: { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': version },
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'long', reason: 'refused?' } }),
      });
    expect((await cancel(OTHER_VERSION)).status).toBe(400);
    await pause(300);
    expect(cancelled.length).toBe(before);

    expect((await cancel('2025-11-25')).status).toBe(202);
    await eventually(() => cancelled.length === before + 1, 3000, 'the accepted cancellation');
    await call.body?.cancel();
    expect((await remove(opener, session, '2025-11-25')).status).toBe(200);
  });
});
