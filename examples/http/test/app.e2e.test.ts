import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { createTestClient } from '@toolwright/server/testing';
import { createHttpApp } from '../src/app';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const json = (result: CallResult) => JSON.parse((result.content as { text: string }[])[0].text);

describe('http through a real MCP client (in memory)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await createTestClient(await createHttpApp());
  });
  afterAll(() => client.close());

  it('lists the task tools', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['list_tasks', 'add_task', 'complete_task']);
    expect(tools[1].inputSchema).toEqual({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1, maxLength: 200, description: "What needs doing, e.g. 'Renew the certificate'" } },
      required: ['title'],
      additionalProperties: false,
    });
  });

  it('adds, lists and completes a task', async () => {
    const added = json(await client.callTool({ name: 'add_task', arguments: { title: 'Write the docs' } }));
    expect(added).toEqual({ id: expect.any(Number), title: 'Write the docs', done: false, owner: 'anonymous' });
    expect(json(await client.callTool({ name: 'list_tasks', arguments: {} }))).toContainEqual(added);
    expect(json(await client.callTool({ name: 'complete_task', arguments: { id: added.id } }))).toMatchObject({ done: true });
    expect(json(await client.callTool({ name: 'list_tasks', arguments: {} }))).not.toContainEqual(expect.objectContaining({ id: added.id }));
  });

  it('reports an unknown task id as a tool error', async () => {
    const result = await client.callTool({ name: 'complete_task', arguments: { id: 999 } });
    expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: 'No task with id 999. Call list_tasks to see the ids.' }] });
  });
});
