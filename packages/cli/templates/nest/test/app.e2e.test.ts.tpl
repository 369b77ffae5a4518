import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { INestApplication } from '@nestjs/common';
import { {{appFactory}} } from '../src/app';
import { TodosService } from '../src/todos.service';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;

describe('{{serverName}}: Nest serves its controller and the MCP endpoint on one port', () => {
  let nest: INestApplication;
  let base: string;
  beforeAll(async () => {
    nest = await {{appFactory}}({ logger: false });
    await nest.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(nest.getHttpServer().address() as { port: number }).port}`;
  });
  afterAll(() => nest.close());

  const connect = async (era: '2025-11-25' | '2026-07-28') => {
    const client = new Client({ name: 'nest-test', version: '1.0.0' }, { versionNegotiation: { mode: era === '2026-07-28' ? { pin: era } : 'legacy' } });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    return client;
  };

  // Both protocol eras from the same endpoint: 2025-11-25 with a session, 2026-07-28 stateless.
  it.each(['2025-11-25', '2026-07-28'] as const)('%s: a real MCP client adds a todo, and the controller shows it', async (era) => {
    const client = await connect(era);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['add_todo', 'list_todos']);
    expect(JSON.parse(text(await client.callTool({ name: 'add_todo', arguments: { title: `Ship it (${era})` } })))).toMatchObject({ title: `Ship it (${era})`, done: false });
    await client.close();
    const todos = (await (await fetch(`${base}/todos`)).json()) as { title: string }[];
    expect(todos.map((t) => t.title)).toContain(`Ship it (${era})`);
  });

  it('runs the Nest guard before each call: read-only mode refuses add_todo, as the client reads', async () => {
    const client = await connect('2026-07-28');
    const store = nest.get(TodosService);
    store.readOnly = true;
    try {
      const refused = await client.callTool({ name: 'add_todo', arguments: { title: 'Not now' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toContain('Forbidden');
      expect(store.list().map((t) => t.title)).not.toContain('Not now');
    } finally {
      store.readOnly = false;
      await client.close();
    }
  });

  it('answers bad arguments with a tool error naming the field', async () => {
    const client = await connect('2026-07-28');
    const result = await client.callTool({ name: 'add_todo', arguments: {} });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('title');
    await client.close();
  });
});
