import 'reflect-metadata';
import Fastify from 'fastify';
import { createApp, type App } from '@toolwright/server';
import { toolwrightPlugin } from '@toolwright/fastify';
import { GreeterTools } from '../../express/test/fixtures/greeterTools';
import { INITIALIZE, post } from '../../express/test/fixtures/mcpClients';

/**
 * The plugin's hold on the app, on a real Fastify 5 app on 127.0.0.1: taken before the start, so
 * that another listener closing while the start runs does not stop the app under the endpoint,
 * and let go when the start fails, so that the app stops once started by another listener.
 */
async function gatedApp(failures: number): Promise<{ app: App; events: string[]; open: () => void }> {
  const events: string[] = [];
  let left = failures;
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const app = await createApp({
    name: 'gated',
    version: '1.0.0',
    tools: [GreeterTools],
    onStart: async () => {
      events.push('start');
      await gate;
      if (left-- > 0) throw new Error('no database yet');
    },
    onShutdown: () => void events.push('stop'),
  });
  return { app, events, open };
}

describe('Fastify plugin, its hold on the app', () => {
  it('holds the app before starting it: the last other listener closing meanwhile does not stop it', async () => {
    const { app, events, open } = await gatedApp(0);
    const other = app.openListener();
    const otherStart = app.start();
    const fastify = Fastify();
    // Not awaited: the plugin loads as the server starts listening, and its start waits on the start hook.
    void fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' });
    const listening = fastify.listen({ port: 0, host: '127.0.0.1' });
    // The plugin is registering, its start waiting on the start hook: the other listener closes now.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const otherClosed = other();
    open();
    await Promise.all([listening, otherStart, otherClosed]);
    try {
      expect(events).toEqual(['start']);
      const { port } = fastify.server.address() as { port: number };
      expect((await post(`http://127.0.0.1:${port}/mcp`, INITIALIZE)).status).toBe(200);
    } finally {
      await fastify.close();
    }
    expect(events).toEqual(['start', 'stop']);
  });

  it('lets go of the app when its start fails: started by another listener, the app stops when that listener closes', async () => {
    const { app, events, open } = await gatedApp(1);
    open();
    const fastify = Fastify();
    await expect(fastify.register(toolwrightPlugin, { app, requestLogLevel: 'silent' })).rejects.toThrow(/no database yet/);
    await fastify.close();
    const other = app.openListener();
    await app.start();
    await other();
    expect(events).toEqual(['start', 'stop', 'start', 'stop']);
  });
});
