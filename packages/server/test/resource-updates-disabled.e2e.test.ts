import 'reflect-metadata';
import { Param, Resource } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { modernPost } from './fixtures/modernPost';
import { sseMessages, type SseMessage } from './fixtures/sseMessages';
import { waitFor } from './fixtures/waitFor';

/**
 * A resource switched off (`app.resources.disable`) or removed is not served: its updates reach
 * nobody, in both eras, and a new subscription to it is refused as for a resource that does not
 * exist. A subscription the client already holds stays: once the resource is enabled again, its
 * updates reach the subscriber again, also through an app that mounts it (whose copy of the
 * mounted app's lists follows them a debounce later), unless that app disabled it itself.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Board {
  @Resource('board://a', { description: 'Switched off and on by the tests.' })
  a() {
    return 'a';
  }

  @Resource('board://b', { description: 'Always served.' })
  b() {
    return 'b';
  }

  @Resource('notes://{id}', { description: 'A note by id.' })
  note(@Param('id') id: string) {
    return id;
  }
}

describe('updates of a disabled resource, 2025-11-25 subscriptions', () => {
  it('reach no subscriber while it is disabled or its template is, and reach them again once enabled', async () => {
    const app = await createApp({ name: 'board', version: '1', tools: [Board], logger: silent });
    const client = await createTestClient(app);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    try {
      await client.subscribeResource({ uri: 'board://a' });
      await client.subscribeResource({ uri: 'notes://7' });
      app.resources.disable('board://a');
      app.resources.disable('notes://{id}');
      expect([app.notifyResourceUpdated('board://a'), app.notifyResourceUpdated('notes://7')]).toEqual([0, 0]);
      // A new subscription to a disabled resource is refused as for one that does not exist.
      await expect(client.subscribeResource({ uri: 'board://a' })).rejects.toMatchObject({ data: { uri: 'board://a' } });
      await client.ping(); // a round trip: an update sent before it would have arrived
      expect(updates).toEqual([]);

      app.resources.enable('board://a');
      app.resources.enable('notes://{id}');
      expect([app.notifyResourceUpdated('board://a'), app.notifyResourceUpdated('notes://7')]).toEqual([1, 1]);
      await waitFor(() => updates.length === 2, 'the two updates');
      expect(updates).toEqual(['board://a', 'notes://7']);
    } finally {
      await client.close();
    }
  });
});

describe('updates of a disabled resource, 2026-07-28 subscriptions/listen', () => {
  let listener: HttpListener | undefined;
  afterEach(() => listener?.close());

  it('reach no listen stream while it is disabled, and reach it again once enabled', async () => {
    const app = await createApp({ name: 'board', version: '1', tools: [Board], logger: silent });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const response = await modernPost(listener.url, { jsonrpc: '2.0', id: 'l', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['board://a', 'board://b'] } } });
    expect(response.status).toBe(200);
    const stream = sseMessages(response);
    try {
      await stream.until((m) => m.method === 'notifications/subscriptions/acknowledged');
      const isUpdate = (m: SseMessage) => m.method === 'notifications/resources/updated';
      const uriOf = (m: SseMessage) => (m.params as { uri: string }).uri;
      app.resources.disable('board://a');
      app.notifyResourceUpdated('board://a');
      // b's update comes after the one of a that must not come, had it been sent.
      app.notifyResourceUpdated('board://b');
      expect((await stream.until(isUpdate)).filter(isUpdate).map(uriOf)).toEqual(['board://b']);
      app.resources.enable('board://a');
      app.notifyResourceUpdated('board://a');
      expect((await stream.until(isUpdate)).filter(isUpdate).map(uriOf)).toEqual(['board://a']);
    } finally {
      await stream.cancel();
    }
  });
});

describe('updates of a mounted resource enabled again', () => {
  it.each([
    ['board://a', 'board://a'],
    ['notes://{id}', 'notes://7'],
  ])('%s, updated at once, reaches the subscriber of the parent, which announces one list change', async (key, uri) => {
    // The parent announces its changes well before the mounted app does: one change must not become two.
    const child = await createApp({ name: 'child', version: '1', tools: [Board], logger: silent, listChangedDebounceMs: 40 });
    const parent = await createApp({ name: 'parent', version: '1', tools: [], mount: [{ app: child, namespace: 'c' }], logger: silent, listChangedDebounceMs: 1 });
    const client = await createTestClient(parent);
    const updates: string[] = [];
    let listChanges = 0;
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    client.setNotificationHandler('notifications/resources/list_changed', () => void listChanges++);
    try {
      await client.subscribeResource({ uri });
      child.resources.disable(key);
      await waitFor(() => listChanges === 1, 'the parent to follow the disable');
      child.resources.enable(key);
      child.notifyResourceUpdated(uri);
      await waitFor(() => updates.length === 1, 'the update to reach the subscriber');
      expect(updates).toEqual([uri]);
      await waitFor(() => listChanges === 2, 'the parent to follow the enable');
      // The parent caught up early; the mounted app's own list change, when it comes, changes nothing more.
      await new Promise((resolve) => setTimeout(resolve, 100));
      await client.ping();
      expect(listChanges).toBe(2);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['board://a', 'board://b']);
    } finally {
      await client.close();
    }
  });

  it('reaches the subscriber of an app that mounts it through another, updated at once', async () => {
    const child = await createApp({ name: 'child', version: '1', tools: [Board], logger: silent });
    const middle = await createApp({ name: 'middle', version: '1', tools: [], mount: [{ app: child, namespace: 'c' }], logger: silent });
    const outer = await createApp({ name: 'outer', version: '1', tools: [], mount: [{ app: middle, namespace: 'm' }], logger: silent });
    const client = await createTestClient(outer);
    const updates: string[] = [];
    let listChanges = 0;
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    client.setNotificationHandler('notifications/resources/list_changed', () => void listChanges++);
    try {
      await client.subscribeResource({ uri: 'board://a' });
      child.resources.disable('board://a');
      await waitFor(() => listChanges === 1, 'the outer app to follow the disable');
      child.resources.enable('board://a');
      child.notifyResourceUpdated('board://a');
      await waitFor(() => updates.length === 1, 'the update to reach the subscriber');
      expect(updates).toEqual(['board://a']);
    } finally {
      await client.close();
    }
  });

  it('stays unheard while the parent itself disabled it', async () => {
    const child = await createApp({ name: 'child', version: '1', tools: [Board], logger: silent });
    const parent = await createApp({ name: 'parent', version: '1', tools: [], mount: [{ app: child, namespace: 'c' }], logger: silent });
    const client = await createTestClient(parent);
    const updates: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updates.push(n.params.uri));
    try {
      await client.subscribeResource({ uri: 'board://a' });
      await client.subscribeResource({ uri: 'board://b' });
      parent.resources.disable('board://a');
      child.notifyResourceUpdated('board://a');
      child.notifyResourceUpdated('board://b');
      await waitFor(() => updates.length > 0, 'the update of board://b');
      await client.ping();
      expect(updates).toEqual(['board://b']);
    } finally {
      await client.close();
    }
  });
});
