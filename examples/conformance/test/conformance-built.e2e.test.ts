import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { answerLikeTheSuite, FULL_CAPABILITIES } from './suiteClient';

/** The built server in its own process (npm run build first): apart from conformance.e2e.test.ts so that file stays in the fast loop. */
describe('examples/conformance: the built server over stdio', () => {
  const server = join(__dirname, '..', 'dist', 'server.js');

  it('serves the fixtures over stdio (node dist/server.js)', async () => {
    const client = new Client({ name: 'stdio-test', version: '1.0.0' }, { capabilities: FULL_CAPABILITIES });
    answerLikeTheSuite(client, []);
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [server], stderr: 'ignore' }));
    expect((await client.listTools()).tools).toHaveLength(35);
    expect((await client.callTool({ name: 'test_sampling', arguments: { prompt: 'p' } })).content).toEqual([{ type: 'text', text: 'LLM response: echo(p) max=100' }]);
    expect(((await client.readResource({ uri: 'test://template/7/data' })).contents[0] as { text: string }).text).toBe('{"id":"7","templateTest":true,"data":"Data for ID: 7"}');
    await client.close();
  });
});
