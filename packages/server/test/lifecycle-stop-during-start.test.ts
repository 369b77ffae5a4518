import { OnShutdown, OnStart, Tool } from '@toolwright/core';
import { createApp, defineExtension } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';
import { Service } from 'typedi';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('app.stop() asked while the start hooks still run', () => {
  it('waits for them, so the shutdown hooks and the extensions stop after everything started, never before', async () => {
    const events: string[] = [];

    @Service()
    class Pool {
      @OnStart()
      async connect() {
        events.push('pool opening');
        await sleep(30);
        events.push('pool open');
      }
      @OnShutdown()
      close() {
        events.push('pool closed');
      }
    }

    @Service()
    class Tools {
      @Tool({ description: 'Answers pong.' })
      ping() {
        return 'pong';
      }
    }

    const worker = defineExtension({
      id: 'com.example/worker',
      start() {
        events.push('worker started');
        return () => void events.push('worker stopped');
      },
    });
    const app = await createApp({ name: 'pool', version: '1', tools: [Tools], services: [Pool], extensions: [worker] });
    const starting = app.start();
    // Say a SIGTERM handler of the app's own stops it while a slow start hook is still connecting.
    const stopping = app.stop();
    await Promise.all([starting, stopping]);
    expect(events).toEqual(['pool opening', 'pool open', 'worker started', 'worker stopped', 'pool closed']);
  });

  it('still stops what started when a start hook failed', async () => {
    const events: string[] = [];

    @Service()
    class Tools {
      @Tool({ description: 'Answers pong.' })
      ping() {
        return 'pong';
      }
      @OnShutdown()
      close() {
        events.push('closed');
      }
    }

    const app = await createApp({
      name: 'failing',
      version: '1',
      tools: [Tools],
      onStart: async () => {
        await sleep(10);
        throw new Error('database unreachable');
      },
    });
    const starting = app.start();
    const stopping = app.stop();
    await expect(starting).rejects.toThrow('the start hook onStart failed, so the server did not start: database unreachable');
    await stopping;
    expect(events).toEqual(['closed']);
    // The app still answers in memory: a stopped app's registry is intact.
    const client = await createTestClient(app);
    try {
      expect(await toolText(client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    } finally {
      await client.close();
    }
  });
});
