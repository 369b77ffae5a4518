import 'reflect-metadata';
import { BuildError, MCP_APP_MIME_TYPE, Param, Tool, UiResource, UI_EXTENSION } from '@toolwright/core';
import { apps, createApp, type App } from '@toolwright/server';
import { createTestClient, toolText } from '@toolwright/server/testing';

/**
 * MCP Apps (SEP-1865) from decorators, through the real SDK v2 client in both eras (and over
 * HTTP): the view as a ui:// resource with its MIME type and _meta.ui (listed and read), the
 * tool link (nested and flat), app-only tools shown only to clients that declared the
 * extension and still access-checked, and the build refusing a link to no view.
 */
const VIEW = '<!doctype html><html><body><div id="count"></div><script>/* view */</script></body></html>';
let counter = 0;

class CounterApp {
  @UiResource('ui://counter', {
    title: 'Counter',
    description: 'Shows the counter and a button that increments it.',
    csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
    permissions: { clipboardWrite: {} },
    domain: 'counter.example.com',
    prefersBorder: true,
  })
  view() {
    return VIEW;
  }

  @Tool({ description: 'Show the counter.', ui: { resource: 'ui://counter' } })
  showCounter() {
    return { count: counter, text: `The counter is at ${counter}.` };
  }

  @Tool({ description: 'Increment the counter (called by the view).', ui: { resource: 'ui://counter', visibility: ['app'] } })
  increment(@Param('by', { integer: true, minimum: 1 }) by: number) {
    counter += by;
    return `The counter is at ${counter}.`;
  }
}

const declaring = { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };
type Client = Awaited<ReturnType<typeof createTestClient>>;

describe('MCP Apps', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'counter', version: '1.0.0', tools: [CounterApp], extensions: [apps()] });
  });

  describe.each([
    ['2025-11-25', 'memory'],
    ['2026-07-28', 'memory'],
    ['2026-07-28', 'http'],
  ] as const)('%s over %s', (protocol, transport) => {
    let host: Client;
    let plain: Client;
    beforeAll(async () => {
      host = await createTestClient(app, { protocol, transport, capabilities: declaring } as never);
      plain = await createTestClient(app, { protocol, transport } as never);
    });
    afterAll(async () => {
      await host.close();
      await plain.close();
    });

    it('advertises the extension', () => {
      expect((host.getServerCapabilities() as { extensions?: object }).extensions).toEqual({ [UI_EXTENSION]: {} });
    });

    it('lists and reads the view as a ui:// resource with its MIME type and _meta.ui', async () => {
      const ui = {
        csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
        permissions: { clipboardWrite: {} },
        domain: 'counter.example.com',
        prefersBorder: true,
      };
      const { resources } = await host.listResources();
      expect(resources).toContainEqual({
        uri: 'ui://counter',
        name: 'view',
        title: 'Counter',
        description: 'Shows the counter and a button that increments it.',
        mimeType: MCP_APP_MIME_TYPE,
        _meta: { ui },
      });
      expect((await host.readResource({ uri: 'ui://counter' })).contents).toEqual([{ uri: 'ui://counter', mimeType: MCP_APP_MIME_TYPE, text: VIEW, _meta: { ui } }]);
    });

    it('links the tools to the view, nested and flat', async () => {
      const tools = new Map((await host.listTools()).tools.map((t) => [t.name, t]));
      expect(tools.get('show_counter')!._meta).toEqual({ ui: { resourceUri: 'ui://counter' }, 'ui/resourceUri': 'ui://counter' });
      expect(tools.get('increment')!._meta).toEqual({ ui: { resourceUri: 'ui://counter', visibility: ['app'] }, 'ui/resourceUri': 'ui://counter' });
    });

    it('serves an app-only tool only to clients that declared the extension, validated like any call', async () => {
      expect((await plain.listTools()).tools.map((t) => t.name)).toEqual(['show_counter']);
      const refused = await plain.callTool({ name: 'increment', arguments: { by: 1 } }).then(
        () => undefined,
        (e: { code: number }) => e.code,
      );
      expect(refused).toBe(-32602);
      const before = counter;
      expect(await toolText(host.callTool({ name: 'increment', arguments: { by: 2 } }))).toBe(`The counter is at ${before + 2}.`);
      expect((await host.callTool({ name: 'increment', arguments: { by: 0 } })).isError).toBe(true);
    });

    it('gives a client without the extension meaningful text from a view tool', async () => {
      const result = await plain.callTool({ name: 'show_counter', arguments: {} });
      expect(result.content?.[0]).toMatchObject({ type: 'text', text: expect.stringContaining('The counter is at') });
    });
  });

  it('refuses at build a tool linked to no view, and a bad visibility', async () => {
    class Broken {
      @Tool({ description: 'Linked to nothing.', ui: { resource: 'ui://missing' } })
      a() {
        return 'a';
      }

      @Tool({ description: 'Bad visibility.', ui: { resource: 'ui://missing', visibility: ['everyone' as never] } })
      b() {
        return 'b';
      }
    }
    const failed = await createApp({ name: 'x', version: '1', tools: [Broken] }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(BuildError);
    expect((failed as Error).message).toMatch(/Broken\.a: its ui\.resource 'ui:\/\/missing' is no view of this app/);
    expect((failed as Error).message).toMatch(/Broken\.b: its ui\.visibility \["everyone"\]/);
    expect(() => UiResource('https://x')).toThrow(/fixed ui:\/\/ URI/);
  });
});
