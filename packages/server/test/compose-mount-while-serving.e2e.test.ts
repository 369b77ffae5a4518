import 'reflect-metadata';
import { BuildError, ConfigError, StartupError, Tool, type Class } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';

/**
 * `app.mount()` while the app serves, raced and failing half-way, and one app mounted in two
 * parents, checked through a real SDK client in memory in both eras: a mount that fails serves
 * nothing of its call and lets go of the apps it started (their shutdown hooks run), two
 * racing mounts cannot both serve a name or close a cycle, and stopping one parent leaves a
 * mounted app that another parent still serves running.
 */
class Alpha {
  @Tool({ description: 'Alpha.' })
  x() {
    return 'alpha';
  }
}
class Beta {
  @Tool({ description: 'Beta.' })
  x() {
    return 'beta';
  }
}
class Own {
  @Tool({ description: 'The parent tool.' })
  own() {
    return 'own';
  }
}

const trail: string[] = [];
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An app whose start hook takes `ms` (so another mount can run meanwhile) and whose hooks leave a trail. */
const hooked = (name: string, tools: Class[], ms = 0, fail = false) =>
  createApp({
    name,
    version: '1',
    tools,
    onStart: async () => {
      await pause(ms);
      if (fail) throw new Error(`${name} cannot reach its database`);
      trail.push(`start ${name}`);
    },
    onShutdown: () => void trail.push(`stop ${name}`),
  });

describe.each(['2025-11-25', '2026-07-28'] as const)('app.mount() while serving, over %s', (protocol) => {
  const toolNames = async (app: App) => {
    const client = await createTestClient(app, { protocol });
    try {
      return (await client.listTools()).tools.map((t) => t.name);
    } finally {
      await client.close();
    }
  };
  let errors: jest.SpyInstance;
  beforeEach(() => {
    trail.length = 0;
    errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => errors.mockRestore());

  it('two racing mounts under one namespace: one is served, the other is a BuildError and its app is stopped again', async () => {
    const parent = await createApp({ name: 'p', version: '1', tools: [Own] });
    await parent.start();
    const [one, two] = [await hooked('one', [Alpha], 20), await hooked('two', [Beta], 20)];
    const [first, second] = await Promise.allSettled([parent.mount(one, { namespace: 'ns' }), parent.mount(two, { namespace: 'ns' })]);
    expect(first.status).toBe('fulfilled');
    expect((second as PromiseRejectedResult).reason).toBeInstanceOf(BuildError);
    expect((second as PromiseRejectedResult).reason.message).toMatch(/tool 'ns_x': served by both/);
    expect(trail).toEqual(['start one', 'start two', 'stop two']);
    const client = await createTestClient(parent, { protocol });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['own', 'ns_x']);
      expect(await client.callTool({ name: 'ns_x' })).toMatchObject({ content: [{ type: 'text', text: 'alpha' }] });
    } finally {
      await client.close();
    }
    await parent.stop();
    expect(trail).toEqual(['start one', 'start two', 'stop two', 'stop one']);
  });

  it('a batch that clashes with a mount made while its start hooks ran serves none of its apps, and stops them', async () => {
    const parent = await createApp({ name: 'p', version: '1', tools: [Own] });
    await parent.start();
    // Every app is made first: making 'three' while 'one' starts let 'one' finish first on a loaded machine.
    const [one, two, three] = [await hooked('one', [Alpha], 20), await hooked('two', [Beta], 20), await hooked('three', [Beta])];
    const batch = parent.mount({ app: one, namespace: 'a' }, { app: two, namespace: 'b' });
    const quick = parent.mount({ app: three, namespace: 'b' });
    await expect(quick).resolves.toBeUndefined();
    await expect(batch).rejects.toThrow(BuildError);
    expect(await toolNames(parent)).toEqual(['own', 'b_x']);
    expect(trail).toEqual(['start three', 'start one', 'start two', 'stop two', 'stop one']);
    await parent.stop();
    expect(trail.slice(5)).toEqual(['stop three']);
  });

  it('a start hook that throws: nothing of the call is served, and the apps it started are shut down', async () => {
    const parent = await createApp({ name: 'p', version: '1', tools: [Own] });
    await parent.start();
    const refused = await parent.mount({ app: await hooked('ok', [Alpha]), namespace: 'ok' }, { app: await hooked('bad', [Beta], 0, true), namespace: 'bad' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StartupError);
    expect((refused as Error).message).toBe('Toolwright: the start hook onStart failed, so the server did not start: bad cannot reach its database');
    expect(await toolNames(parent)).toEqual(['own']);
    expect(trail).toEqual(['start ok', 'stop bad', 'stop ok']);
    // The parent keeps serving, and mounts again.
    await parent.mount(await hooked('later', [Alpha]), { namespace: 'later' });
    expect(await toolNames(parent)).toEqual(['own', 'later_x']);
    await parent.stop();
    expect(trail).toEqual(['start ok', 'stop bad', 'stop ok', 'start later', 'stop later']);
  });

  it('two apps mounting each other at once: the second is refused, no cycle is served', async () => {
    const a = await hooked('a', [Alpha], 10);
    const b = await hooked('b', [Beta], 10);
    await a.start();
    await b.start();
    const [ab, ba] = await Promise.allSettled([a.mount(b, { namespace: 'b' }), b.mount(a, { namespace: 'a' })]);
    expect(ab.status).toBe('fulfilled');
    expect((ba as PromiseRejectedResult).reason).toBeInstanceOf(ConfigError);
    expect((ba as PromiseRejectedResult).reason.message).toMatch(/is this app, or an app that already serves it through its own mounts/);
    expect(await toolNames(a)).toEqual(['x', 'b_x']);
    expect(await toolNames(b)).toEqual(['x']);
  });

  it('one app mounted in two parents keeps running until the last parent stops', async () => {
    const shared = await hooked('shared', [Alpha]);
    const first = await createApp({ name: 'p1', version: '1', tools: [], mount: [{ app: shared, namespace: 's' }] });
    const second = await createApp({ name: 'p2', version: '1', tools: [] });
    await first.start();
    await second.start();
    await second.mount(shared, { namespace: 's' });
    await first.stop();
    expect(trail).toEqual(['start shared']);
    expect(await toolNames(second)).toEqual(['s_x']);
    await second.stop();
    expect(trail).toEqual(['start shared', 'stop shared']);
  });
});
