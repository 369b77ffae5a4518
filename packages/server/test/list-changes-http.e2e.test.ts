import 'reflect-metadata';
import { Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { watchGetStream } from './fixtures/httpHelpers';
import { signal, waitFor } from './fixtures/waitFor';

class Board {
  @Tool({ description: 'Always there.' }) stable() {
    return 'stable';
  }
  @Tool({ description: 'Comes and goes.' }) flaky() {
    return 'flaky';
  }
  @Resource('board://status', { description: 'Board status' }) status() {
    return 'green';
  }
}

const eventually = (check: () => boolean) => waitFor(check, 'a notification');

describe('server notifications over Streamable HTTP (the session GET stream)', () => {
  let app: App;
  let listener: HttpListener;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await createApp({ name: 'board', version: '1', tools: [Board], listChangedDebounceMs: 5 });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent' });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await listener.close();
  });

  async function connect(): Promise<{ client: Client; events: string[] }> {
    const client = new Client({ name: 'http-notifications', version: '1' });
    const events: string[] = [];
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => void events.push('tools/list_changed'));
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void events.push(`updated ${n.params.uri}`));
    const getStream = signal<boolean>();
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { fetch: watchGetStream(getStream.resolve) }));
    clients.push(client);
    // The SDK client opens its GET stream after initialization: notifications travel on it.
    expect(await getStream.promise).toBe(true);
    return { client, events };
  }

  it('sends tools/list_changed to every session when a tool is disabled', async () => {
    const [one, two] = await Promise.all([connect(), connect()]);
    app.tools.disable('flaky');
    await eventually(() => one.events.includes('tools/list_changed') && two.events.includes('tools/list_changed'));
    expect((await one.client.listTools()).tools.map((t) => t.name)).toEqual(['stable']);
    app.tools.enable('flaky');
    await eventually(() => one.events.filter((e) => e === 'tools/list_changed').length === 2);
  });

  it('sends resources/updated only to the sessions subscribed to the resource', async () => {
    const [subscriber, bystander] = await Promise.all([connect(), connect()]);
    await subscriber.client.subscribeResource({ uri: 'board://status' });
    expect(app.notifyResourceUpdated('board://status')).toBe(1);
    await eventually(() => subscriber.events.includes('updated board://status'));
    // A later notification to both sessions: had the bystander been sent the update, it would have come first on its stream.
    app.tools.disable('flaky');
    await eventually(() => bystander.events.includes('tools/list_changed'));
    expect(bystander.events).toEqual(['tools/list_changed']);
    app.tools.enable('flaky');
  });
});
