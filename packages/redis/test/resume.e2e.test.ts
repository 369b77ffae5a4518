import 'reflect-metadata';
import { Resource, Tool } from '@toolwright/core';
import { firstListChange } from './fixtures/firstListChange';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { eventually, startInstances, stopInstances, storedEvents, type Instance } from './fixtures/instances';
import { openGet, openRawSession, readSse, rpc } from './fixtures/sse';

class Board {
  @Tool({ description: 'Comes and goes.' }) flaky() {
    return 'flaky';
  }
  @Resource('board://status', { description: 'Board status' }) status() {
    return 'green';
  }
}

describe('the GET stream resumed with Last-Event-ID on another instance', () => {
  let redis: RedisServer;
  let instances: Instance[];
  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(3, redis.url, { name: 'resume', version: '1', tools: [Board], listChangedDebounceMs: 1 });
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('replays what was stored while the client was away, then carries live events', async () => {
    const [a, b, c] = instances;
    const session = await openRawSession(a.url);
    const heard = await firstListChange(a, session, () => c.app.tools.disable('flaky'));

    // While no GET stream is open anywhere: a change on C, a subscription through C and an update on A, each stored before the next.
    const stored = await storedEvents(a, session);
    c.app.tools.enable('flaky');
    await eventually(async () => (await storedEvents(a, session)) > stored, 3000, 'the change to be stored');
    const subscribed = await rpc(c.url, session, { jsonrpc: '2.0', id: 2, method: 'resources/subscribe', params: { uri: 'board://status' } });
    expect(subscribed.status).toBe(200);
    await subscribed.text();
    const beforeUpdate = await storedEvents(a, session);
    a.app.notifyResourceUpdated('board://status');
    await eventually(async () => (await storedEvents(a, session)) > beforeUpdate, 3000, 'the update to be stored');

    const resumed = readSse(await openGet(b.url, session, heard.id));
    expect((await resumed.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect((await resumed.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'board://status' } });
    // Live again, from a change on yet another instance.
    c.app.tools.disable('flaky');
    const live = await resumed.next();
    expect(live.data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    // A last, different event: any repeat of the ones above would have come before it.
    a.app.notifyResourceUpdated('board://status');
    expect((await resumed.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'board://status' } });
    expect(resumed.events).toHaveLength(4);
    const ids = resumed.events.map((e) => e.id!);
    expect(new Set(ids).size).toBe(4);
    await resumed.cancel();
  });

  it('answers 400 to an unknown Last-Event-ID on any instance', async () => {
    const session = await openRawSession(instances[0].url);
    for (const instance of instances) {
      const response = await openGet(instance.url, session, '1-0');
      expect(response.status).toBe(400);
      await response.text();
    }
  });
});
