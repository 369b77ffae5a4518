// #region spec
import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AccountTools } from './account.tools';

describe('account tools', () => {
  let app: App;
  let client: Client;

  beforeAll(async () => {
    app = await createApp({ name: 'accounts', version: '1.0.0', tools: [AccountTools] });
  });
  beforeEach(async () => {
    client = await createTestClient(app);
  });
  afterEach(() => client.close());

  it('lists the tools with their schemas', async () => {
    const { tools } = await client.listTools();
    const withdraw = tools.find((t) => t.name === 'withdraw');
    expect(withdraw?.inputSchema.required).toEqual(['account', 'amount']);
  });

  it('withdraws', async () => {
    const result = await client.callTool({ name: 'withdraw', arguments: { account: 'alice', amount: 20 } });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'Withdrew 20; the balance is now 100.' }]);
  });

  it('tells the model what was wrong with its arguments', async () => {
    const result = await client.callTool({ name: 'withdraw', arguments: { account: 'alice', amount: -5 } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: "Invalid arguments for tool 'withdraw':\n- amount: must be greater than 0" }]);
  });
});
// #endregion spec
