import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTestClient } from '@toolwright/server/testing';
import { createLookupApp, LookupTools } from '../snippets/schemas/explicit';
import { connect, textOf } from './helpers';

describe('schemas page', () => {
  it('states what TypeScript cannot see', async () => {
    const { client, close } = await connect([LookupTools]);
    const [tool] = (await client.listTools()).tools;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        ids: { type: 'array', items: { type: 'integer' }, minItems: 1 },
        sort: { type: 'string', enum: ['name', 'age'] },
        team: { type: ['string', 'null'] },
        host: { type: 'string', format: 'hostname' },
      },
      required: ['ids', 'team', 'host'],
      additionalProperties: false,
    });
    const bad = await client.callTool({ name: 'lookup', arguments: { ids: [1, 2.5], team: 7, host: 'example.org', extra: true } });
    expect(bad.isError).toBe(true);
    expect(`${textOf(bad)}\n`).toBe(readFileSync(join(__dirname, '../snippets/schemas/invalid-lookup.txt'), 'utf8'));
    await close();
  });

  it('coerces strings when asked to', async () => {
    const client = await createTestClient(await createLookupApp());
    const result = await client.callTool({ name: 'lookup', arguments: { ids: ['1', '2'], team: null, host: 'example.org' } });
    expect(JSON.parse(textOf(result)!)).toEqual({ ids: [1, 2], sort: 'name', team: null, host: 'example.org' });
    await client.close();
  });
});
