import 'reflect-metadata';
import { Param, Prompt, Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { waitFor } from './fixtures/waitFor';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

class BaseTools {
  @Tool({ description: 'Always there.' }) stable() {
    return 'stable';
  }
  @Tool({ description: 'Comes and goes.' }) flaky() {
    return 'flaky';
  }
  @Resource('mem://a') a() {
    return 'a';
  }
  @Prompt({ description: 'Greets.' }) greet(@Param('name') name: string) {
    return `Hi ${name}`;
  }
}

class PluginTools {
  @Tool({ description: 'Added at runtime.' }) plugin() {
    return 'plugin';
  }
  @Resource('mem://plugin/{id}') pluginItem(@Param('id') id: string) {
    return id;
  }
}

describe('runtime list changes through real SDK clients (in memory)', () => {
  let app: App;
  let a: Client;
  let b: Client;
  const events: string[] = [];

  beforeAll(async () => {
    app = await createApp({ name: 'changing', version: '1.0.0', tools: [BaseTools], listChangedDebounceMs: 20 });
    a = await createTestClient(app);
    b = await createTestClient(app);
    for (const [name, client] of [
      ['a', a],
      ['b', b],
    ] as const) {
      client.setNotificationHandler('notifications/tools/list_changed', () => void events.push(`${name}:tools`));
      client.setNotificationHandler('notifications/resources/list_changed', () => void events.push(`${name}:resources`));
      client.setNotificationHandler('notifications/prompts/list_changed', () => void events.push(`${name}:prompts`));
    }
  });
  afterAll(async () => {
    await a.close();
    await b.close();
  });
  beforeEach(() => {
    events.length = 0;
  });

  const toolNames = async (client: Client) => (await client.listTools()).tools.map((t) => t.name);
  /** Waits for `count` notifications, then for a round trip on each client, so that any sent before it has arrived too. */
  const settle = async (count: number) => {
    await waitFor(() => events.length >= count, `${count} notifications`, { detail: () => events.join(', ') });
    await Promise.all([a.ping(), b.ping()]);
  };

  it('disables and enables a tool, telling every connection once per burst', async () => {
    expect(app.tools.disable('flaky')).toBe(true);
    expect(app.tools.disable('flaky')).toBe(true); // no change, no second notification
    expect(await toolNames(a)).toEqual(['stable']);
    await expect(a.callTool({ name: 'flaky', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await settle(2);
    expect(events.sort()).toEqual(['a:tools', 'b:tools']);

    events.length = 0;
    app.tools.enable('flaky');
    app.tools.disable('stable');
    app.tools.enable('stable');
    await settle(2);
    expect(events.sort()).toEqual(['a:tools', 'b:tools']);
    expect(await toolNames(b)).toEqual(['stable', 'flaky']);
    expect(app.tools.enable('nope')).toBe(false);
  });

  it('removes a prompt and a resource for good', async () => {
    expect(app.prompts.remove('greet')).toBe(true);
    expect(app.resources.remove('mem://a')).toBe(true);
    expect(app.resources.remove('mem://a')).toBe(false);
    await expect(a.getPrompt({ name: 'greet', arguments: { name: 'x' } })).rejects.toMatchObject({ code: -32602 });
    await expect(a.readResource({ uri: 'mem://a' })).rejects.toMatchObject({ code: -32602 });
    expect((await a.listPrompts()).prompts).toEqual([]);
    await settle(4);
    expect(events.sort()).toEqual(['a:prompts', 'a:resources', 'b:prompts', 'b:resources']);
  });

  it('adds classes at runtime and refuses names already served', async () => {
    await app.add(PluginTools);
    expect(await toolNames(a)).toEqual(['stable', 'flaky', 'plugin']);
    expect((await a.callTool({ name: 'plugin', arguments: {} })).content).toEqual([{ type: 'text', text: 'plugin' }]);
    expect((await a.readResource({ uri: 'mem://plugin/42' })).contents).toEqual([{ uri: 'mem://plugin/42', text: '42' }]);
    await settle(4);
    expect(events.sort()).toEqual(['a:resources', 'a:tools', 'b:resources', 'b:tools']);
    await expect(app.add(PluginTools)).rejects.toThrow("cannot add tool 'plugin', resource template 'mem://plugin/{id}': already served");
  });

  it('stops telling a connection once it closes', async () => {
    const c = await createTestClient(app);
    await c.close();
    app.tools.disable('plugin');
    await settle(2);
    expect(events.sort()).toEqual(['a:tools', 'b:tools']);
  });
});

class ManyTools {
  @Tool({ description: '1' }) t1() {
    return 1;
  }
  @Tool({ description: '2' }) t2() {
    return 2;
  }
  @Tool({ description: '3' }) t3() {
    return 3;
  }
  @Tool({ description: '4' }) t4() {
    return 4;
  }
  @Tool({ description: '5' }) t5() {
    return 5;
  }
  @Resource('r://1') r1() {
    return '1';
  }
  @Resource('r://2') r2() {
    return '2';
  }
  @Resource('r://3') r3() {
    return '3';
  }
  @Resource('t://{a}') ta(@Param('a') x: string) {
    return x;
  }
  @Prompt({ description: 'p' }) p1() {
    return 'p';
  }
}

describe('pagination through a real SDK client (in memory)', () => {
  let client: Client;

  beforeAll(async () => {
    client = await createTestClient(await createApp({ name: 'paged', version: '1.0.0', tools: [ManyTools], pageSize: 2 }));
  });
  afterAll(() => client.close());

  it('pages every list with opaque cursors', async () => {
    // Without a cursor, the v2 client's listTools() gathers every page; one request is one page.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    const first = await client.request({ method: 'tools/list', params: {} });
    expect(first.tools.map((t) => t.name)).toEqual(['t1', 't2']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await client.listTools({ cursor: first.nextCursor });
    expect(second.tools.map((t) => t.name)).toEqual(['t3', 't4']);
    const third = await client.listTools({ cursor: second.nextCursor });
    expect(third.tools.map((t) => t.name)).toEqual(['t5']);
    expect(third.nextCursor).toBeUndefined();

    const resources = await client.request({ method: 'resources/list', params: {} });
    expect(resources.resources.map((r) => r.uri)).toEqual(['r://1', 'r://2']);
    expect((await client.listResources({ cursor: resources.nextCursor })).resources.map((r) => r.uri)).toEqual(['r://3']);
    expect(await client.listResourceTemplates()).toEqual({ resourceTemplates: [{ uriTemplate: 't://{a}', name: 'ta' }] });
    expect(await client.listPrompts()).toEqual({ prompts: [{ name: 'p1', description: 'p' }] });
  });

  it('refuses a malformed cursor or one from another list with -32602', async () => {
    await expect(client.listTools({ cursor: 'garbage' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('Invalid cursor for tools') });
    const { nextCursor } = await client.request({ method: 'resources/list', params: {} });
    expect(nextCursor).toEqual(expect.any(String));
    await expect(client.listTools({ cursor: nextCursor })).rejects.toMatchObject({ code: -32602 });
    await expect(client.listPrompts({ cursor: Buffer.from('prompts:99').toString('base64url') })).rejects.toMatchObject({ code: -32602 });
  });

  it('does not send back a cursor longer than any the server issues', async () => {
    const short = await client.listTools({ cursor: 'garbage' }).catch((e: unknown) => e);
    expect(short).toMatchObject({ code: -32602, data: { cursor: 'garbage' } });
    const long = await client.listTools({ cursor: 'x'.repeat(100_000) }).catch((e: unknown) => e);
    expect(long).toMatchObject({ code: -32602, message: expect.stringContaining('Invalid cursor for tools') });
    expect(JSON.stringify(long).length).toBeLessThan(1000);
  });

  it('keeps no page for each spelling of a cursor a client makes up', async () => {
    // 'tools:2', 'tools:02', 'tools:002' ... are one page: 2,000 spellings of about 1 kB may not each stay cached.
    const spelling = (i: number) => Buffer.from(`tools:${'0'.repeat(i)}2`).toString('base64url');
    expect((await client.listTools({ cursor: spelling(0) })).tools.map((t) => t.name)).toEqual(['t3', 't4']);
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 1; i <= 2000; i++) await client.listTools({ cursor: spelling(500 + i) });
    gc();
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(1024 * 1024);
    expect((await client.listTools({ cursor: spelling(3000) })).tools.map((t) => t.name)).toEqual(['t3', 't4']);
  });
});
