import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import { createRedisCluster, type RedisCluster } from '@toolwright/redis';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';

class Exports {
  @Tool({ description: 'Exports everything (only as a task).', task: 'required' })
  exportAll() {
    return 'exported';
  }
}

class Greeter {
  @Tool({ description: 'Says hello.' })
  hello() {
    return 'hello';
  }
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
/** What a single instance answers a refused app's `initialize`: the endpoint's generic error, the refusal in the log. */
const GENERIC = { jsonrpc: '2.0', id: null, error: { code: -32603, message: 'Internal error: the server failed to handle this request. Its log has the details.' } };
const MAX_SESSIONS = 3;

/** One endpoint of `app` sharing its sessions through `cluster`: the node listener or the fetch handler. */
interface Endpoint {
  send(body: string): Promise<Response>;
  close(): Promise<void>;
}

/** A refusal's answer, as the client reads it. */
const refusal = async (response: Response) => ({ status: response.status, retryAfter: response.headers.get('retry-after'), body: JSON.parse(await response.text()) as unknown });

const endpoints: Record<string, (app: App, cluster: RedisCluster, logged: string[]) => Promise<Endpoint>> = {
  'node listener': async (app, cluster) => {
    const listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false, cluster, sessions: { maxSessions: MAX_SESSIONS, initializeRate: false } });
    return { send: (body) => fetch(listener.url, { method: 'POST', headers: HEADERS, body }), close: () => listener.close() };
  },
  'fetch handler': async (app, cluster, logged) => {
    const handler = createFetchHandler(app, { cluster, allowedHosts: ['localhost'], sessions: { maxSessions: MAX_SESSIONS, initializeRate: false }, logError: (message) => void logged.push(message) });
    return {
      send: (body) => handler(new Request('http://localhost/mcp', { method: 'POST', headers: HEADERS, body })),
      close: () => handler.close({ drainTimeoutMs: 0 }),
    };
  },
};

/**
 * An app that may not serve its own clients (a `task: 'required'` tool without `tasks()`, see
 * tasks-required-alone.e2e.test.ts) behind a cluster: its `initialize` is answered as a single
 * instance answers it (the generic 500, the refusal logged), not as an unreachable store (503 with
 * Retry-After and the refusal's text), and records no session in the shared store, so refused
 * clients take none of `maxSessions` from those that come once the app serves again. A real
 * redis-server; the node listener on 127.0.0.1 and the fetch handler alike.
 */
describe('a refused initialize over a cluster', () => {
  let redis: RedisServer;

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it.each(Object.keys(endpoints))('%s: the generic error, no session recorded, every session slot left for the clients that come once the app serves', async (kind) => {
    const logged: string[] = [];
    const app = await createApp({ name: 'alone', version: '1', tools: [Greeter], logger: { debug: () => {}, info: () => {}, warn: () => {}, error: (message) => void logged.push(message) } });
    const cluster = await createRedisCluster({ url: redis.url, prefix: `refused-${randomUUID().slice(0, 8)}:`, logWrite: () => {} });
    const endpoint = await endpoints[kind](app, cluster, logged);
    try {
      await app.add(Exports); // refused from now on
      for (let i = 0; i < MAX_SESSIONS; i++) {
        expect(await refusal(await endpoint.send(INITIALIZE))).toEqual({ status: 500, retryAfter: null, body: GENERIC });
      }
      expect(logged.join('\n')).toContain("Exports.exportAll (app 'alone') runs only as a task");
      expect(await cluster.redis.zcard(`${cluster.prefix}sessions`)).toBe(0);
      app.tools.remove('export_all'); // served again
      for (let i = 0; i < MAX_SESSIONS; i++) {
        const opened = await endpoint.send(INITIALIZE);
        expect(opened.status).toBe(200);
        await opened.body?.cancel();
      }
      expect(await cluster.redis.zcard(`${cluster.prefix}sessions`)).toBe(MAX_SESSIONS);
    } finally {
      await endpoint.close();
      await cluster.close();
    }
  });
});
