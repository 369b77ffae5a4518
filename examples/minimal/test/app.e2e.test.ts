import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { createTestClient } from '@toolwright/server/testing';
import { createMinimalApp } from '../src/app';

type CallResult = Awaited<ReturnType<Client['callTool']>>;
const text = (result: CallResult) => (result.content as { text: string }[])[0].text;

describe('minimal through a real MCP client (in memory)', () => {
  let client: Client;
  beforeAll(async () => {
    client = await createTestClient(await createMinimalApp());
  });
  afterAll(() => client.close());

  it('lists the greet tool with its schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['greet']);
    expect(tools[0].inputSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', minLength: 1, description: "The person's name, e.g. 'Ada'" },
        language: { type: 'string', enum: ['en', 'fr', 'ja'], default: 'en', description: 'Language of the greeting: en, fr or ja' },
      },
      required: ['name'],
      additionalProperties: false,
    });
  });

  it('greets, in English by default', async () => {
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada!');
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', language: 'fr' } }))).toBe('Bonjour, Ada !');
  });

  it('answers bad arguments with a tool error naming each one', async () => {
    const result = await client.callTool({ name: 'greet', arguments: { language: 'de' } });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('- name: is required');
    expect(text(result)).toContain('- language: must be one of');
  });

  it('reports a blank name as a tool error', async () => {
    const result = await client.callTool({ name: 'greet', arguments: { name: '   ' } });
    expect(result).toMatchObject({ isError: true });
    expect(text(result)).toBe('The name is blank: pass the name of the person to greet.');
  });
});
