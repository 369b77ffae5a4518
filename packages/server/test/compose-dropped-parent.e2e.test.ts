import 'reflect-metadata';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Param, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * A long-lived app mounted into parents that come and go (one per tenant, a module reloaded in
 * development): a parent dropped by its code is not kept alive, nor kept in step with every later
 * change, by the app it mounted; a parent still referenced follows it as before, also through a
 * middle app only the parent references. The SDK v2 client checks the live parent in memory; the
 * garbage collector is run as Node exposes it.
 */
class Child {
  @Tool({ description: 'Echo a text.' })
  echo(@Param('text') text: string) {
    return text;
  }

  @Tool({ description: 'Shout a text.' })
  shout(@Param('text') text: string) {
    return text.toUpperCase();
  }
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const counted = (count: () => void) => ({ toolsChanged: count, promptsChanged: () => undefined, resourcesChanged: () => undefined, resourceUpdated: () => undefined });

/** Parents mounting `child`, each counting the tool list changes it is told of, then dropped. */
async function dropParents(child: App, count: () => void): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const parent = await createApp({ name: `tenant-${i}`, version: '1.0.0', tools: [], mount: [{ app: child, namespace: 'c' }] });
    parent.addNotifier(counted(count));
  }
}

it('lets go of a parent its code dropped, and keeps a referenced parent in step', async () => {
  const child = await createApp({ name: 'child', version: '1.0.0', tools: [Child] });
  let dropped = 0;
  let kept = 0;
  await dropParents(child, () => void dropped++);
  const parent = await createApp({ name: 'kept', version: '1.0.0', tools: [], mount: [{ app: child, namespace: 'c' }] });
  parent.addNotifier(counted(() => void kept++));
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  child.tools.disable('shout');
  const client = await createTestClient(parent);
  try {
    // The parents are told in one pass, so once the kept one has heard of the change, so would have the dropped ones.
    await waitFor(() => kept === 1, 'the kept parent to hear of the change');
    expect(dropped).toBe(0);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['c_echo']);
    expect(await client.callTool({ name: 'c_echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  } finally {
    await client.close();
  }
});

/** An outer app serving `child` through a middle app nothing else references. */
async function outerOf(child: App): Promise<App> {
  const middle = await createApp({ name: 'middle', version: '1.0.0', tools: [], mount: [{ app: child, namespace: 'm' }] });
  return createApp({ name: 'outer', version: '1.0.0', tools: [], mount: [{ app: middle, namespace: 'o' }] });
}

it('keeps a referenced parent in step through a middle app only the parent references', async () => {
  const child = await createApp({ name: 'child', version: '1.0.0', tools: [Child] });
  const outer = await outerOf(child);
  for (let i = 0; i < 5; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const client = await createTestClient(outer);
  let changes = 0;
  client.setNotificationHandler('notifications/tools/list_changed', () => void changes++);
  try {
    expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['o_m_echo', 'o_m_shout']);
    child.tools.disable('shout');
    await waitFor(() => changes > 0, 'the outer app to follow the change');
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['o_m_echo']);
    expect(await client.callTool({ name: 'o_m_echo', arguments: { text: 'hi' } })).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
  } finally {
    await client.close();
  }
});
