import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { Ctx, Resource, Tool, type ToolContext } from '@toolwright/core';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { firstListChange } from './fixtures/firstListChange';
import { InstanceTools } from './fixtures/instanceTools';
import { startRedisServer, type RedisServer } from './fixtures/redisServer';
import { startFetchInstances, type FetchInstance } from './fixtures/fetchInstances';
import { connectRoundRobin, eventually, startInstances, stopInstances, storedEvents, streamWatched, textOf, type Instance } from './fixtures/instances';
import { openGet, openRawSession, readSse, rpc } from './fixtures/sse';

class Desk {
  @Tool({ description: 'Asks the user.' })
  async ask(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Which drink?', { type: 'object', properties: { drink: { type: 'string' } }, required: ['drink'] });
    return `${answer.action === 'accept' ? String(answer.content.drink) : answer.action} on ${String(ctx.headers?.host)}`;
  }

  @Resource('desk://status', { description: 'Desk status' }) status() {
    return 'green';
  }
}

/** The JSON-RPC messages of an SSE (or JSON) answer. */
async function messagesOf(response: Response): Promise<Record<string, unknown>[]> {
  const text = await response.text();
  if (response.headers.get('content-type')?.includes('application/json')) return [JSON.parse(text) as Record<string, unknown>];
  return text
    .split('\n')
    .filter((line) => line.startsWith('data: {'))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/**
 * Issue 24: 2025-11-25 sessions of the web-standard fetch handler shared through Redis. Two
 * fetch-handler instances and a node listener, each its own app and Redis connections on one
 * prefix of a real redis-server, serve one session between them: any instance answers any
 * request, notifications reach the GET stream wherever it is open, a server-to-client request
 * is answered through any instance, a GET stream resumes on another, DELETE ends it everywhere.
 */
describe('fetch-handler instances (and a node listener) sharing sessions through a real redis-server', () => {
  let redis: RedisServer;
  let fetchers: FetchInstance[];
  let node: Instance[];
  let urls: string[];
  const appOptions = { name: 'desk', version: '1', tools: [InstanceTools, Desk], listChangedDebounceMs: 1 };

  beforeAll(async () => {
    redis = await startRedisServer();
    const prefix = `fetch-${randomUUID().slice(0, 8)}:`;
    fetchers = await startFetchInstances(2, redis.url, prefix, appOptions);
    node = await startInstances(1, redis.url, appOptions, {}, prefix);
    urls = [fetchers[0].url, fetchers[1].url, node[0].url];
  });
  afterAll(async () => {
    for (const instance of fetchers ?? []) await instance.close();
    await stopInstances(node ?? []);
    await redis?.close();
  });

  it('opens a session on one fetch handler and serves its calls on the other and on the node listener', async () => {
    const [a, b] = fetchers;
    const session = await openRawSession(a.url);
    for (const url of [b.url, node[0].url, a.url]) {
      const [answer] = await messagesOf(await rpc(url, session, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }));
      expect(answer).toMatchObject({ id: 2, result: { content: [{ type: 'text', text: `hi from ${new URL(url).host}` }] } });
    }
    // Another caller's request naming it finds no session, on any instance.
    expect(a.handler.sessionCount + b.handler.sessionCount).toBeGreaterThan(0);
    const unknown = await rpc(b.url, randomUUID(), { jsonrpc: '2.0', id: 3, method: 'tools/list' });
    expect(unknown.status).toBe(404);
  });

  it('serves an SDK client whose every request goes to the next instance: calls, progress, logs at the level set through another', async () => {
    const { client, sent } = await connectRoundRobin(urls);
    const served = new Set<string>();
    for (let i = 0; i < 6; i++) served.add(textOf(await client.callTool({ name: 'echo', arguments: { text: `call ${i}` } }))!.split(' from ')[1]);
    expect(served.size).toBe(3);
    expect(new Set(sent.map((s) => s.split(' ')[1])).size).toBe(3);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params.level));
    await client.setLoggingLevel('warning');
    for (let round = 0; round < 3; round++) {
      const progress: number[] = [];
      expect(textOf(await client.callTool({ name: 'work', arguments: {} }, undefined, { onprogress: (p) => void progress.push(p.progress) }))).toBe('done');
      expect(progress).toEqual([1, 2, 3]);
    }
    expect(logs).toEqual(['warning', 'warning', 'warning']);
    await client.close();
  });

  it('tells the GET stream of a session, wherever it is open, of a change made on any instance, and updates to its subscribers only', async () => {
    const clients = await Promise.all([0, 1].map(() => connectRoundRobin(urls)));
    const heard = [0, 0];
    const updates: string[][] = [[], []];
    clients.forEach(({ client }, i) => {
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void heard[i]++);
      client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates[i].push(n.params.uri));
    });
    await Promise.all(clients.map(({ transport }) => streamWatched(fetchers[0], transport.sessionId!)));
    node[0].app.tools.disable('flaky');
    await eventually(() => heard.every((n) => n === 1), 3000, 'tools/list_changed on both clients');
    await clients[0].client.subscribeResource({ uri: 'desk://status' });
    fetchers[1].app.notifyResourceUpdated('desk://status');
    await eventually(() => updates[0].length === 1, 3000, 'resources/updated for the subscriber');
    // A later notification to both (each instance has its own app: this one's list changes too): an update sent to the bystander, or a second list change, would have come before it.
    fetchers[0].app.tools.disable('flaky');
    await eventually(() => heard.every((n) => n === 2), 3000, 'the second tools/list_changed');
    expect(updates).toEqual([['desk://status'], []]);
    await Promise.all(clients.map(({ client }) => client.close()));
    node[0].app.tools.enable('flaky');
    fetchers[0].app.tools.enable('flaky');
  });

  it('hands the answer to a server-to-client request (elicitation) to the instance that asked, whichever instance it reached', async () => {
    const { client, sent } = await connectRoundRobin(
      fetchers.map((f) => f.url),
      { elicitation: { form: {} } },
    );
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { drink: 'tea' } }));
    for (let round = 0; round < 2; round++) {
      const before = sent.length;
      expect(textOf(await client.callTool({ name: 'ask', arguments: {} }))).toMatch(/^tea on 127\.0\.0\.1:\d+$/);
      const posts = new Set(
        sent
          .slice(before)
          .filter((s) => s.startsWith('POST'))
          .map((s) => s.split(' ')[1]),
      );
      expect(posts.size).toBe(2);
    }
    await client.close();
  });

  it('resumes a GET stream with Last-Event-ID on the other fetch handler', async () => {
    const [a, b] = fetchers;
    const session = await openRawSession(a.url);
    const heard = await firstListChange(a, session, () => node[0].app.tools.disable('flaky'));
    // Stored while no GET stream is open anywhere.
    const stored = await storedEvents(a, session);
    b.app.tools.disable('flaky');
    await eventually(async () => (await storedEvents(a, session)) > stored, 3000, 'the change to be stored');
    const resumed = readSse(await openGet(b.url, session, heard.id));
    const replayed = await resumed.next();
    expect(replayed.data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    expect(replayed.id).not.toBe(heard.id);
    // Live again on B, from a change on A.
    await streamWatched(b, session);
    a.app.tools.disable('flaky');
    expect((await resumed.next()).data).toEqual({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await resumed.cancel();
    for (const app of [a.app, b.app, node[0].app]) app.tools.enable('flaky');
  });

  it('ends a session everywhere on DELETE through a fetch handler', async () => {
    const session = await openRawSession(node[0].url);
    await (await rpc(fetchers[0].url, session, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).text();
    const deleted = await fetch(fetchers[1].url, { method: 'DELETE', headers: { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } });
    expect(deleted.status).toBe(200);
    for (const url of urls) {
      const response = await rpc(url, session, { jsonrpc: '2.0', id: 3, method: 'tools/list' });
      await response.text();
      expect(response.status).toBe(404);
    }
  });
});
