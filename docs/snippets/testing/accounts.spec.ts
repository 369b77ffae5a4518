// #region spec
import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import { createTestClient, toolError, toolSchema, toolText } from '@toolwright/server/testing';
import type { Client } from '@modelcontextprotocol/client';
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
    expect((await toolSchema(client, 'withdraw')).required).toEqual(['account', 'amount']);
  });

  it('withdraws', async () => {
    const result = client.callTool({ name: 'withdraw', arguments: { account: 'alice', amount: 20 } });
    expect(await toolText(result)).toBe('Withdrew 20; the balance is now 100.');
  });

  it('tells the model what was wrong with its arguments', async () => {
    const result = client.callTool({ name: 'withdraw', arguments: { account: 'alice', amount: -5 } });
    expect(await toolError(result)).toBe("Invalid arguments for tool 'withdraw':\n- amount: must be greater than 0");
  });
});
// #endregion spec
