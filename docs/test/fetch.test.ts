import 'reflect-metadata';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createHandler, createProtectedHandler } from '../snippets/fetch/handler';

/** The Fetch handler page's snippets, driven by the SDK clients in both eras through the handler (each `Request` handed over in process). */
describe('fetch handler guide', () => {
  it('serves both eras at the public name it lists, and refuses another Host', async () => {
    const handler = await createHandler();
    const fetchImpl = ((input: string | URL | Request, init?: RequestInit) => handler(new Request(input, init))) as typeof fetch;
    const url = new URL('https://mcp.example.com/mcp');
    const legacy = new LegacyClient({ name: 'legacy', version: '1' });
    await legacy.connect(new LegacyHttp(url, { fetch: fetchImpl }));
    expect(await legacy.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    await legacy.close();
    const modern = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await modern.connect(new ModernHttp(url, { fetch: fetchImpl }));
    expect(modern.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    expect(await modern.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
    await modern.close();
    const foreign = await handler(
      new Request('https://elsewhere.example.com/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }),
    );
    expect(foreign.status).toBe(403);
    await handler.close();
  });

  it('asks for a bearer token and serves its RFC 9728 metadata', async () => {
    const handler = await createProtectedHandler();
    const refused = await handler(
      new Request('https://mcp.example.com/mcp', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' }),
    );
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toBe('Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"');
    const metadata = await handler(new Request('https://mcp.example.com/.well-known/oauth-protected-resource/mcp'));
    expect(await metadata.json()).toMatchObject({ resource: 'https://mcp.example.com/mcp', authorization_servers: ['https://auth.example.com'] });
    await handler.close();
  });
});
