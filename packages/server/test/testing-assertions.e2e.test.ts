/** The test kit's one-line assertions, on results from a real client against the kitchen fixtures. */
import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { createApp } from '@toolwright/server';
import { createTestClient, structuredResult, toolError, toolSchema, toolText } from '@toolwright/server/testing';
import { KitchenTools, ReportTools } from './fixtures/kitchen.tools';

describe('testing assertions', () => {
  let client: Client;
  beforeAll(async () => {
    client = await createTestClient(await createApp({ name: 'kit', version: '0.0.0', tools: [KitchenTools, ReportTools] }));
  });
  afterAll(() => client.close());

  it('toolError returns the message the model reads, and fails on a success', async () => {
    expect(await toolError(client.callTool({ name: 'tool_error', arguments: {} }))).toBe('City not found: Atlantis');
    await expect(toolError(client.callTool({ name: 'report', arguments: { city: 'Rome' } }))).rejects.toThrow('Expected the tool to return an error (isError: true), but it succeeded with:');
  });

  it('structuredResult returns structuredContent, and fails on an error or plain text', async () => {
    expect(await structuredResult(client.callTool({ name: 'report', arguments: { city: 'Rome' } }))).toEqual({ city: 'Rome', celsius: 21 });
    await expect(structuredResult(client.callTool({ name: 'tool_error', arguments: {} }))).rejects.toThrow('Expected a structured result, but the tool returned an error: City not found: Atlantis');
  });

  it('toolText returns the text of a success, and fails on an error', async () => {
    expect(await toolText(client.callTool({ name: 'report', arguments: { city: 'Rome' } }))).toBe('{"city":"Rome","celsius":21}');
    await expect(toolText(client.callTool({ name: 'tool_error', arguments: {} }))).rejects.toThrow('Expected the tool to succeed, but it returned an error: City not found: Atlantis');
  });

  it('toolSchema returns the advertised schema, and names the tools when one is missing', async () => {
    expect(await toolSchema(client, 'report')).toEqual({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'], additionalProperties: false });
    expect(await toolSchema(client, 'report', 'output')).toMatchObject({ type: 'object', required: expect.arrayContaining(['city', 'celsius']) });
    await expect(toolSchema(client, 'reprot')).rejects.toThrow(/No tool named 'reprot' is listed\. The tools are: .*report/);
  });
});
