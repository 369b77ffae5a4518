import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { createApp } from '@toolwright/server';
import { HttpTools } from './fixtures/http.tools';
import { connectClient, textOf } from './fixtures/httpHelpers';

describe('the legacy HTTP+SSE transport (2024-11-05 clients), behind an option', () => {
  it('serves GET /sse + POST /messages next to Streamable HTTP, with the same Host/Origin checks', async () => {
    const app = await createApp({ name: 'legacy', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, legacySse: true });
    const base = listener.url.replace(/\/mcp$/, '');

    const legacy = new Client({ name: 'old-client', version: '1' });
    await legacy.connect(new SSEClientTransport(new URL(`${base}/sse`)));
    expect(textOf(await legacy.callTool({ name: 'slow', arguments: { ms: 1 } }))).toBe('slept 1');

    const { client: modern } = await connectClient(listener.url);
    expect(textOf(await modern.callTool({ name: 'slow', arguments: { ms: 2 } }))).toBe('slept 2');

    expect((await fetch(`${base}/sse`, { headers: { origin: 'https://evil.example' } })).status).toBe(403);
    const unknown = await fetch(`${base}/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(unknown.status).toBe(404);

    await Promise.all([legacy.close(), modern.close()]);
    await listener.close();
  });

  it('is off by default', async () => {
    const app = await createApp({ name: 'legacy-off', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    expect((await fetch(listener.url.replace(/\/mcp$/, '/sse'))).status).toBe(404);
    await listener.close();
  });
});
