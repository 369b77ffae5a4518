import 'reflect-metadata';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '@toolwright/server';
import { toolwrightMiddleware } from '@toolwright/hono';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { INITIALIZE, post } from './fixtures/v2Clients';

/**
 * The middleware's hold on the app across a failed start, on a real Hono 4 app served by
 * @hono/node-server on 127.0.0.1: the requests that waited for the failed start get 503, a later
 * one starts the app again, and the failed start leaves no hold behind (the shutdown hooks run
 * when the last listener closes).
 */
async function flakyApp(failures: number, firstStartWaitsFor: Promise<void> = Promise.resolve()): Promise<{ app: App; events: string[] }> {
  const events: string[] = [];
  let left = failures;
  let starts = 0;
  const app = await createApp({
    name: 'flaky',
    version: '1.0.0',
    tools: [GreeterTools],
    onStart: async () => {
      events.push('start');
      if (starts++ === 0) await firstStartWaitsFor;
      if (left-- > 0) throw new Error('no database yet');
    },
    onShutdown: () => void events.push('stop'),
  });
  return { app, events };
}

describe('Hono middleware, a start that fails', () => {
  it('answers 503 to the requests that waited for it, starts the app again on a later request, and logs the failure once', async () => {
    // The first start ends only once the first request has reached the middleware, so that request waits for it.
    let firstRequestArrived!: () => void;
    const arrival = new Promise<void>((resolve) => (firstRequestArrived = resolve));
    const { app, events } = await flakyApp(2, arrival);
    const errors: string[] = [];
    const web = new Hono();
    const mcp = toolwrightMiddleware(app, { logError: (message) => void errors.push(message) });
    web.use(async (_context, next) => {
      firstRequestArrived();
      await next();
    });
    web.use(mcp);
    const server = await new Promise<ServerType>((resolve) => {
      const s = serve({ fetch: web.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    try {
      // Sent while the first start runs: it waits for it, and gets its failure.
      expect((await post(url, INITIALIZE)).status).toBe(503);
      await expect(mcp.ready).rejects.toThrow(/no database yet/);
      // Starts the app again, which fails a second time.
      expect((await post(url, INITIALIZE)).status).toBe(503);
      const served = await post(url, INITIALIZE);
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('"serverInfo":{"name":"flaky"');
      expect(errors.filter((line) => line.includes('did not start'))).toHaveLength(1);
    } finally {
      await mcp.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    // Each failed start stopped what it began; the one that succeeded stops when the middleware closes.
    expect(events).toEqual(['start', 'stop', 'start', 'stop', 'start', 'stop']);
  });

  it('lets go of the app: started by another listener, the app stops when that listener closes', async () => {
    const { app, events } = await flakyApp(1);
    const mcp = toolwrightMiddleware(app, { logError: () => {} });
    await expect(mcp.ready).rejects.toThrow(/no database yet/);
    const other = app.openListener();
    await app.start();
    await other();
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
    await mcp.close();
  });
});
