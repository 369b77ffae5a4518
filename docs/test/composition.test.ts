/** The snippet of the Composition page, run as it is through the SDK v2 test client. */
import { createTestClient } from '@toolwright/server/testing';
import { createFrontApp } from '../snippets/composition/front';

describe('the composition snippet', () => {
  it('serves the billing app under its namespace, with its middleware, and follows its changes', async () => {
    const log: string[] = [];
    const { front, billing } = await createFrontApp(log);
    const client = await createTestClient(front);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['open_ticket', 'billing_create_invoice']);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['billing_reminder']);
    expect((await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['billing://invoices/{id}']);
    const result = await client.callTool({ name: 'billing_create_invoice', arguments: { customer: 'ada' } });
    expect(result.content).toEqual([{ type: 'text', text: '{"invoice":"INV-ada"}' }]);
    expect((await client.readResource({ uri: 'billing://invoices/7' })).contents[0]).toMatchObject({ text: 'Invoice 7: paid' });
    expect(log).toEqual(['billing: billing_create_invoice', 'billing: billing://invoices/{id}']);
    billing.tools.disable('create_invoice');
    for (let i = 0; i < 100 && (await client.listTools()).tools.length > 1; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['open_ticket']);
    await client.close();
  });
});
