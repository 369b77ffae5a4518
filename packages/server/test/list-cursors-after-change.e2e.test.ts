import 'reflect-metadata';
import { Param, Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';

/**
 * A cursor points at an offset in one version of a list. After the list changes (a member
 * disabled, enabled, removed or added), the same offset names another item: a client that went
 * on paging used to skip or repeat items without being told. Such a cursor is now refused with
 * -32602 saying the list changed, and listing again from the start pages the new list.
 */
class Five {
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
  @Resource('t://{a}/1') ta(@Param('a') a: string) {
    return a;
  }
  @Resource('t://{a}/2') tb(@Param('a') a: string) {
    return a;
  }
  @Resource('t://{a}/3') tc(@Param('a') a: string) {
    return a;
  }
}

const CHANGED = { code: -32602, message: 'Invalid cursor for tools: the list changed since this cursor was issued. List again without a cursor.' };

describe.each(['2025-11-25', '2026-07-28'] as const)('cursors across a list change (%s, in memory)', (protocol) => {
  let app: App;
  let client: Client;
  beforeEach(async () => {
    app = await createApp({ name: 'cursors', version: '1.0.0', tools: [Five], pageSize: 2 });
    client = await createTestClient(app, { protocol });
  });
  afterEach(() => client.close());

  const firstToolsPage = () => client.request({ method: 'tools/list', params: {} });

  it('refuses a tools cursor issued before a tool was disabled, instead of skipping the item that moved up', async () => {
    const first = await firstToolsPage();
    expect(first.tools.map((t) => t.name)).toEqual(['t1', 't2']);
    app.tools.disable('t1');
    await expect(client.listTools({ cursor: first.nextCursor })).rejects.toMatchObject(CHANGED);
    // Listing again pages the list as it is now, without a gap.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['t2', 't3', 't4', 't5']);
    const again = await firstToolsPage();
    expect((await client.listTools({ cursor: again.nextCursor })).tools.map((t) => t.name)).toEqual(['t4', 't5']);
  });

  it('refuses a cursor issued before a tool was enabled again or removed, and one of an earlier change', async () => {
    app.tools.disable('t5');
    const stale = (await firstToolsPage()).nextCursor;
    app.tools.enable('t5');
    await expect(client.listTools({ cursor: stale })).rejects.toMatchObject(CHANGED);
    const before = (await firstToolsPage()).nextCursor;
    app.tools.remove('t2');
    await expect(client.listTools({ cursor: before })).rejects.toMatchObject(CHANGED);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['t1', 't3', 't4', 't5']);
  });

  it('refuses resource and template cursors issued before the resources changed, and keeps the other lists', async () => {
    const resources = await client.request({ method: 'resources/list', params: {} });
    const templates = await client.request({ method: 'resources/templates/list', params: {} });
    const tools = await firstToolsPage();
    expect(app.resources.remove('r://1')).toBe(true);
    await expect(client.listResources({ cursor: resources.nextCursor })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('the list changed') });
    await expect(client.listResourceTemplates({ cursor: templates.nextCursor })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('the list changed') });
    expect((await client.listTools({ cursor: tools.nextCursor })).tools.map((t) => t.name)).toEqual(['t3', 't4']);
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['r://2', 'r://3']);
  });
});
