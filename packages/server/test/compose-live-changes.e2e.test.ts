import 'reflect-metadata';
import { Resource, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * A mounted app's list changes, as the parent's clients see them (SDK v2 client in memory,
 * 2025-11-25): a burst of changes is one debounced `list_changed` and a consistent list across
 * pages, and the parent's own member served under a name or URI the mount once held is never
 * taken back by the mount's next change.
 */
class Ledger {
  @Tool({ description: 'Who is billed.' })
  who() {
    return 'mounted';
  }
  @Tool({ description: 'Another.' })
  other() {
    return 'other';
  }
  @Tool({ description: 'A third.' })
  third() {
    return 'third';
  }
  @Resource('ledger://latest')
  latest() {
    return 'mounted latest';
  }
  @Resource('ledger://archive')
  archive() {
    return 'mounted archive';
  }
}
class ParentOwn {
  @Tool({ name: 'billing_who', description: "The parent's own." })
  who() {
    return 'parent';
  }
  @Resource('ledger://latest')
  latest() {
    return 'parent latest';
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('live changes of a mounted app, as the parent serves them', () => {
  let errors: jest.SpyInstance;
  beforeEach(() => {
    errors = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => errors.mockRestore());

  it("keeps the parent's own tool and resource that took a removed mounted one's name and URI", async () => {
    const ledger = await createApp({ name: 'ledger', version: '1', tools: [Ledger], listChangedDebounceMs: 1 });
    const logged: string[] = [];
    const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined, error: (message: string) => void logged.push(message) };
    const parent = await createApp({ name: 'p', version: '1', tools: [], listChangedDebounceMs: 1, logger, mount: [{ app: ledger, namespace: 'billing' }] });
    parent.tools.remove('billing_who');
    parent.resources.remove('ledger://latest');
    await parent.add(ParentOwn);
    const client = await createTestClient(parent, { protocol: '2025-11-25' });
    try {
      const served = async () => ({
        tool: (await client.callTool({ name: 'billing_who' })).content,
        resource: (await client.readResource({ uri: 'ledger://latest' })).contents.map((c) => ('text' in c ? c.text : '')),
      });
      const parentOwn = { tool: [{ type: 'text', text: 'parent' }], resource: ['parent latest'] };
      expect(await served()).toEqual(parentOwn);
      // The mounted app's tools and resources change: the parent re-reads them, and its own stay.
      ledger.tools.disable('third');
      ledger.resources.disable('ledger://archive');
      await pause(40);
      expect(await served()).toEqual(parentOwn);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['billing_who', 'billing_other']);
      // The parent removed the mounted ones for good: the mount does not serve them again, so nothing clashes.
      expect(logged).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a burst of enables and disables is one list_changed, and pages list the final tools once each', async () => {
    const ledger = await createApp({ name: 'ledger', version: '1', tools: [Ledger], listChangedDebounceMs: 1 });
    const parent = await createApp({ name: 'p', version: '1', tools: [], pageSize: 2, listChangedDebounceMs: 30, mount: [{ app: ledger, namespace: 'billing' }] });
    const client = await createTestClient(parent, { protocol: '2025-11-25' });
    try {
      let heard = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void heard++);
      const all = async () => {
        const names: string[] = [];
        let cursor: string | undefined;
        do {
          // One request is one page (the v2 client's listTools() without a cursor gathers them all).
          const page = cursor === undefined ? await client.request({ method: 'tools/list', params: {} }) : await client.listTools({ cursor });
          expect(page.tools.length).toBeLessThanOrEqual(2);
          names.push(...page.tools.map((t) => t.name));
          cursor = page.nextCursor;
        } while (cursor);
        return names;
      };
      expect(await all()).toEqual(['billing_who', 'billing_other', 'billing_third']);
      for (let i = 0; i < 50; i++) {
        ledger.tools.disable('other');
        ledger.tools.enable('other');
      }
      ledger.tools.disable('third');
      // The one notification, however late a busy machine sends it; then five debounce windows more, for a second that must not come.
      await waitFor(() => heard >= 1, 'the list_changed notification');
      await pause(150);
      expect(heard).toBe(1);
      expect((await all()).sort()).toEqual(['billing_other', 'billing_who']);
    } finally {
      await client.close();
    }
  });
});
