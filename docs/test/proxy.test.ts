/** The snippet of the Proxy page, run as it is: an upstream app over HTTP on 127.0.0.1, the gateway in front, the SDK v2 test client. */
import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { createGateway } from '../snippets/proxy/gateway';

class DocsTools {
  @Tool({ description: 'Search the docs.', annotations: { readOnlyHint: true } })
  search(@Param('query') query: string, @Ctx() ctx: ToolContext) {
    return { query, authorization: ctx.headers?.authorization ?? null };
  }
}

describe('the proxy snippet', () => {
  it('serves the upstream tools under the namespace, through the gateway middleware, with the gateway key', async () => {
    const upstream = await createApp({ name: 'docs', version: '1.0.0', tools: [DocsTools] });
    const listener = await upstream.listen({ transport: 'http', port: 0, host: '127.0.0.1', requestLogLevel: 'silent', exitOnSignal: false });
    const log: string[] = [];
    const gateway = await createGateway(listener.url, log);
    // In memory the client runs no hooks: started, the gateway holds the proxy, and its stop stops it (else the
    // proxy's stream to the upstream, opened by proxyServer(), retries after the upstream closes, and logs so).
    await gateway.start();
    const client = await createTestClient(gateway, { auth: { clientId: 'ada', token: 'ada-token' } });
    const { tools } = await client.listTools();
    expect(tools).toEqual([expect.objectContaining({ name: 'docs_search', annotations: { readOnlyHint: true } })]);
    const result = await client.callTool({ name: 'docs_search', arguments: { query: 'mount' } });
    expect(JSON.parse((result.content as { text: string }[])[0]!.text)).toEqual({ query: 'mount', authorization: 'Bearer dev-key' });
    expect(log).toEqual(['ada called docs_search']);
    await client.close();
    await gateway.stop();
    await listener.close();
  });
});
