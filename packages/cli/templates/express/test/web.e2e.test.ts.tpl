import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWeb, type Web } from '../src/web';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const json = (result: CallResult) => JSON.parse((result.content as { text: string }[])[0].text) as unknown;

describe('{{serverName}}: Express serves its REST route and the MCP endpoint on one port', () => {
  let web: Web;
  let server: Server;
  let base: string;
  beforeAll(async () => {
    web = await createWeb({ requestLogLevel: 'silent' }); // no request log in the test output
    server = await new Promise<Server>((resolve) => {
      const listening = web.web.listen(0, '127.0.0.1', () => resolve(listening));
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await web.mcp.close();
    await new Promise((resolve) => server.close(resolve));
  });

  // Both protocol eras from the same endpoint: 2025-11-25 with a session, 2026-07-28 stateless.
  it.each(['2025-11-25', '2026-07-28'] as const)('%s: a real MCP client adds a todo, and the REST route shows it', async (era) => {
    const client = new Client({ name: 'web-test', version: '1.0.0' }, { versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add_todo', 'list_todos']);
    const added = json(await client.callTool({ name: 'add_todo', arguments: { title: `Ship it (${era})` } }));
    expect(added).toMatchObject({ title: `Ship it (${era})`, done: false });
    await client.close();
    const todos = (await (await fetch(`${base}/api/todos`)).json()) as { title: string }[];
    expect(todos.map((t) => t.title)).toContain(`Ship it (${era})`);
  });

  it('answers bad arguments with a tool error naming the field', async () => {
    const client = new Client({ name: 'web-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const result = await client.callTool({ name: 'add_todo', arguments: { title: '' } });
    expect(result.isError).toBe(true);
    expect((result.content as { text: string }[])[0].text).toContain('title');
    await client.close();
  });

  it('refuses a request for another Host name (DNS rebinding), and leaves other paths to Express', async () => {
    const rebound = await fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', origin: 'http://evil.example' }, body: '{}' });
    expect(rebound.status).toBe(403);
    expect((await fetch(`${base}/nowhere`)).status).toBe(404);
  });
});
