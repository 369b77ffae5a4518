/** The route handlers' hold on the app across a failed start, called as Next calls them, with `NextRequest`s. */
import 'reflect-metadata';
import { NextRequest } from 'next/server';
import { Service } from 'typedi';
import { Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createRouteHandlers } from '@toolwright/next';

@Service()
class EchoTools {
  @Tool({ description: 'Echo the text.' })
  echo(@Param('text') text: string): string {
    return text;
  }
}

const initialize = () =>
  new NextRequest('http://localhost/mcp', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'localhost' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } }),
  });

async function flakyApp(failures: number): Promise<{ app: App; events: string[] }> {
  const events: string[] = [];
  let left = failures;
  const app = await createApp({
    name: 'flaky',
    version: '1.0.0',
    tools: [EchoTools],
    onStart: async () => {
      events.push('start');
      // Slow enough for a request to arrive while it runs and wait for it.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (left-- > 0) throw new Error('no database yet');
    },
    onShutdown: () => void events.push('stop'),
  });
  return { app, events };
}

describe('createRouteHandlers, a start that fails', () => {
  it('answers 503 to the requests that waited for it, starts the app again on a later request, and logs the failure once', async () => {
    const { app, events } = await flakyApp(2);
    const errors: string[] = [];
    const route = createRouteHandlers(app, { logError: (message) => void errors.push(message) });
    try {
      // Called while the first start runs: it waits for it, and gets its failure.
      expect((await route.POST(initialize())).status).toBe(503);
      await expect(route.ready).rejects.toThrow(/no database yet/);
      // Starts the app again, which fails a second time.
      expect((await route.POST(initialize())).status).toBe(503);
      const served = await route.POST(initialize());
      expect(served.status).toBe(200);
      expect(await served.text()).toContain('"serverInfo":{"name":"flaky"');
      expect(errors.filter((line) => line.includes('did not start'))).toHaveLength(1);
    } finally {
      await route.close();
    }
    // Each failed start stopped what it began; the one that succeeded stops when the handlers close.
    expect(events).toEqual(['start', 'stop', 'start', 'stop', 'start', 'stop']);
  });

  it('lets go of the app: started by another listener, the app stops when that listener closes', async () => {
    const { app, events } = await flakyApp(1);
    const route = createRouteHandlers(app, { logError: () => undefined });
    await expect(route.ready).rejects.toThrow(/no database yet/);
    const other = app.openListener();
    await app.start();
    await other();
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
    await route.close();
  });
});

describe('createRouteHandlers, an app that was never built', () => {
  it('answers 503, and close() (a SIGTERM handler) resolves: there is nothing to stop', async () => {
    const errors: string[] = [];
    const route = createRouteHandlers(Promise.reject(new Error('no such config file')), { logError: (message) => void errors.push(message) });
    await expect(route.ready).rejects.toThrow(/no such config file/);
    expect((await route.POST(initialize())).status).toBe(503);
    await expect(route.close()).resolves.toBeUndefined();
    expect(errors.filter((line) => line.includes('did not start'))).toHaveLength(1);
  });
});
