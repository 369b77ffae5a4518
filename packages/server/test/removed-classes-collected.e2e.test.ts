import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';

/**
 * A tool class the app served and stopped serving (removed at runtime, replaced by a reload)
 * is collected with its instance: the default container holds no class nobody else holds.
 */
// A full collection on demand, without starting jest under --expose-gc.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

type Client = Awaited<ReturnType<typeof createTestClient>>;

/** Adds a new class serving `ping`, calls it through the client (the container builds its instance), removes it; keeps weak references only. */
async function servedThenRemoved(app: App, client: Client, round: number): Promise<{ cls: WeakRef<object>; instance: WeakRef<object> }> {
  const built: WeakRef<object>[] = [];
  class Reloaded {
    readonly payload = new Array(1024).fill(round);
    constructor() {
      built.push(new WeakRef(this));
    }

    @Tool({ description: 'Answers pong.' })
    ping() {
      return `pong ${round}`;
    }
  }
  await app.add(Reloaded);
  expect(await toolText(client.callTool({ name: 'ping', arguments: {} }))).toBe(`pong ${round}`);
  app.tools.remove('ping');
  expect(built).toHaveLength(1);
  return { cls: new WeakRef(Reloaded), instance: built[0]! };
}

/** Collects until `gone` holds, with turns of the event loop between (weak references clear between turns), at most 10 times. */
async function collected(gone: () => boolean): Promise<boolean> {
  for (let i = 0; i < 10 && !gone(); i++) {
    await new Promise((resolve) => setImmediate(resolve));
    gc();
  }
  return gone();
}

class Base {
  @Tool({ description: 'Stays served.' })
  base() {
    return 'base';
  }
}

describe('classes the app no longer serves', () => {
  it('are collected with their instances while the app serves on', async () => {
    const app = await createApp({ name: 'reloading', version: '1.0.0', tools: [Base], logger: silent });
    await app.start();
    const client = await createTestClient(app);
    try {
      const refs: { cls: WeakRef<object>; instance: WeakRef<object> }[] = [];
      for (let round = 1; round <= 3; round++) refs.push(await servedThenRemoved(app, client, round));
      expect(await collected(() => refs.every((r) => r.cls.deref() === undefined && r.instance.deref() === undefined))).toBe(true);
      expect(await toolText(client.callTool({ name: 'base', arguments: {} }))).toBe('base');
    } finally {
      await client.close();
      await app.stop();
    }
  });
});
