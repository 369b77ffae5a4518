import 'reflect-metadata';
import { Resource } from '@toolwright/core';
import { LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { InstanceTools } from './fixtures/instanceTools';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { connectRoundRobin, eventually, startInstances, stopInstances, streamWatched, textOf, type Instance } from './fixtures/instances';

class Board {
  @Resource('board://status', { description: 'Board status' }) status() {
    return 'green';
  }
}

describe('three instances sharing sessions, events and notifications through a real redis-server', () => {
  let redis: RedisServer;
  let instances: Instance[];
  let urls: string[];

  beforeAll(async () => {
    redis = await startRedisServer();
    instances = await startInstances(3, redis.url, { name: 'scale', version: '1', tools: [InstanceTools, Board], listChangedDebounceMs: 5 });
    urls = instances.map((i) => i.url);
  });
  afterAll(async () => {
    await stopInstances(instances ?? []);
    await redis?.close();
  });

  it('serves every request of one session on a different instance in turn', async () => {
    const { client, sent } = await connectRoundRobin(urls);
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const text = textOf(await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } }))!;
      expect(text).toMatch(new RegExp(`^call ${i} from 127.0.0.1:\\d+$`));
      served.add(text.split(' from ')[1]);
    }
    expect(served.size).toBe(3);
    expect(new Set(sent.map((s) => s.split(' ')[1])).size).toBe(3);
    await client.close();
  });

  it('carries progress and logs (at the level set through another instance)', async () => {
    const { client } = await connectRoundRobin(urls);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    await client.setLoggingLevel('debug');
    for (let round = 0; round < 3; round++) {
      const progress: number[] = [];
      const result = await client.callTool({ name: 'work', arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress) });
      expect(textOf(result)).toBe('done');
      expect(progress).toEqual([1, 2, 3]);
    }
    expect(logs.filter((l) => l.startsWith('debug')).length).toBe(3);
    await client.setLoggingLevel('warning');
    logs.length = 0;
    for (let round = 0; round < 3; round++) await client.callTool({ name: 'work', arguments: {} });
    expect(logs).toEqual(['warning', 'warning', 'warning']);
    await client.close();
  });

  it('tells every session of every instance of a list change made on one instance', async () => {
    const clients = await Promise.all([0, 1, 2].map(() => connectRoundRobin(urls)));
    const heard = clients.map(() => 0);
    clients.forEach(({ client }, i) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard[i]++));
    // The SDK client opens its GET stream after initialization; notifications reach it once an instance watches it.
    await Promise.all(clients.map(({ transport }) => streamWatched(instances[0], transport.sessionId!)));
    instances[2].app.tools.disable('flaky');
    await eventually(() => heard.every((n) => n === 1), 3000, 'tools/list_changed on every client');
    // A later notification on the same streams: a second tools/list_changed for the change would have come before it.
    const updated = clients.map(() => false);
    clients.forEach(({ client }, i) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, () => void (updated[i] = true)));
    await Promise.all(clients.map(({ client }) => client.subscribeResource({ uri: 'board://status' })));
    instances[1].app.notifyResourceUpdated('board://status');
    await eventually(() => updated.every(Boolean), 3000, 'resources/updated on every client');
    expect(heard).toEqual([1, 1, 1]);
    instances[2].app.tools.enable('flaky');
    await eventually(() => heard.every((n) => n === 2), 3000, 'the second tools/list_changed');
    await Promise.all(clients.map(({ client }) => client.close()));
  });

  it('sends resources/updated to the subscribers only, whichever instance they subscribed through', async () => {
    const [subscriber, bystander] = await Promise.all([connectRoundRobin(urls), connectRoundRobin(urls)]);
    const events: string[][] = [[], []];
    [subscriber, bystander].forEach(({ client }, i) => client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void events[i].push(n.params.uri)));
    await subscriber.client.subscribeResource({ uri: 'board://status' });
    await Promise.all([subscriber, bystander].map(({ transport }) => streamWatched(instances[0], transport.sessionId!)));
    instances[1].app.notifyResourceUpdated('board://status');
    await eventually(() => events[0].length === 1, 3000, 'resources/updated');
    await subscriber.client.unsubscribeResource({ uri: 'board://status' });
    const listed = [0, 0];
    [subscriber, bystander].forEach(({ client }, i) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listed[i]++));
    instances[0].app.notifyResourceUpdated('board://status');
    // A later notification to both: an update sent to either would have come before it.
    instances[2].app.tools.disable('flaky');
    await eventually(() => listed.every((n) => n > 0), 3000, 'tools/list_changed on both');
    instances[2].app.tools.enable('flaky');
    expect(events).toEqual([['board://status'], []]);
    await Promise.all([subscriber.client.close(), bystander.client.close()]);
  });

  it('ends a session everywhere on DELETE', async () => {
    const { client, transport } = await connectRoundRobin(urls);
    await client.callTool({ name: 'echo', arguments: { text: 'x' } });
    const id = transport.sessionId!;
    await transport.terminateSession();
    for (const url of urls) {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(response.status).toBe(404);
    }
    await client.close();
  });
});
