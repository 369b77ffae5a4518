import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { MCP_APP_MIME_TYPE, UI_EXTENSION } from '@toolwright/core';
import { createTestClient } from '@toolwright/server/testing';
import { createMcpApp } from '../src/app';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;
/** What a host that renders views (Claude, ChatGPT, VS Code, ...) declares. */
const rendersViews = { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } };

describe('app through real MCP clients (in memory)', () => {
  let host: Client;
  let plain: Client;
  beforeAll(async () => {
    const app = await createMcpApp();
    host = await createTestClient(app, { capabilities: rendersViews });
    plain = await createTestClient(app);
  });
  afterAll(async () => {
    await host.close();
    await plain.close();
  });

  it('serves the view as a ui:// resource: the HTML file, with the MCP Apps MIME type', async () => {
    const { resources } = await host.listResources();
    expect(resources).toEqual([expect.objectContaining({ uri: 'ui://counter/view', mimeType: MCP_APP_MIME_TYPE, title: 'Counter' })]);
    const { contents } = await host.readResource({ uri: 'ui://counter/view' });
    expect(contents).toEqual([{ uri: 'ui://counter/view', mimeType: MCP_APP_MIME_TYPE, text: readFileSync(join(__dirname, '..', 'views', 'counter.html'), 'utf8'), _meta: { ui: { prefersBorder: true } } }]);
  });

  it('links the tools to the view; the view-only tools are listed only to hosts that render views', async () => {
    const tools = new Map((await host.listTools()).tools.map((t) => [t.name, t]));
    expect([...tools.keys()]).toEqual(['show_counter', 'add_to_counter', 'reset_counter']);
    expect(tools.get('show_counter')!._meta).toEqual({ ui: { resourceUri: 'ui://counter/view' }, 'ui/resourceUri': 'ui://counter/view' });
    expect(tools.get('add_to_counter')!._meta).toMatchObject({ ui: { resourceUri: 'ui://counter/view', visibility: ['app'] } });
    expect((await plain.listTools()).tools.map((t) => t.name)).toEqual(['show_counter']);
  });

  it('counts: the view calls add_to_counter and reset_counter, show_counter reads the count', async () => {
    expect((await host.callTool({ name: 'add_to_counter', arguments: { by: 2 } })).structuredContent).toEqual({ count: 2, text: 'The counter is at 2.' });
    expect((await host.callTool({ name: 'add_to_counter', arguments: { by: -1 } })).structuredContent).toMatchObject({ count: 1 });
    expect((await host.callTool({ name: 'show_counter', arguments: {} })).structuredContent).toMatchObject({ count: 1 });
    expect((await host.callTool({ name: 'reset_counter', arguments: {} })).structuredContent).toMatchObject({ count: 0 });
  });

  it('gives a client without views meaningful text, and refuses it the view-only tools', async () => {
    expect(text(await plain.callTool({ name: 'show_counter', arguments: {} }))).toContain('The counter is at');
    await expect(plain.callTool({ name: 'add_to_counter', arguments: { by: 1 } })).rejects.toThrow();
  });

  it('answers a bad step with a tool error naming the argument', async () => {
    const result = await host.callTool({ name: 'add_to_counter', arguments: { by: 1000 } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('- by: must be at most 100');
  });
});
