import 'reflect-metadata';
import { Param, Prompt, Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
import { waitFor } from './fixtures/waitFor';

/**
 * A connection declares its capabilities when it opens. An app that serves only tools, then adds
 * prompts and resources at runtime, must not send that connection the prompts' or resources'
 * `list_changed` (or a resource update): the SDK refuses to send what the connection did not
 * declare, and a refused send used to take the connection out of the live ones, so it never heard
 * of a tool list change again.
 */
class OnlyTools {
  @Tool({ description: 'Comes and goes.' }) flaky() {
    return 'flaky';
  }
}

class AddedLater {
  @Prompt({ description: 'Greets.' }) greet(@Param('name') name: string) {
    return `Hi ${name}`;
  }
  @Resource('mem://later') later() {
    return 'later';
  }
}

describe.each([
  { era: '2025-11-25', protocol: '2025-11-25' as const },
  { era: '2026-07-28 (listening)', protocol: '2026-07-28' as const },
])('a connection opened before the app served prompts and resources ($era, in memory)', ({ protocol }) => {
  let app: App;
  let client: Client;
  let events: string[];
  let stopListening: (() => Promise<void>) | undefined;

  beforeEach(async () => {
    app = await createApp({ name: 'late-capabilities', version: '1.0.0', tools: [OnlyTools], listChangedDebounceMs: 1 });
    client = await createTestClient(app, { protocol });
    events = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void events.push('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => void events.push('prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', () => void events.push('resources'));
    client.setNotificationHandler('notifications/resources/updated', () => void events.push('updated'));
    if (protocol === '2026-07-28') {
      const listening = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['mem://later'] });
      stopListening = () => listening.close();
    }
    expect(client.getServerCapabilities()).not.toHaveProperty('prompts');
    expect(client.getServerCapabilities()).not.toHaveProperty('resources');
  });
  afterEach(async () => {
    await stopListening?.();
    await client.close();
  });

  it('still hears of tool list changes after prompts and resources are added and a resource is updated', async () => {
    await app.add(AddedLater);
    await new Promise((resolve) => setTimeout(resolve, 30));
    app.notifyResourceUpdated('mem://later');
    await client.listTools();
    app.tools.disable('flaky');
    await waitFor(() => events.includes('tools'), 'the tools list change');
    await client.listTools();
    expect(events).toEqual(['tools']);
  });
});
