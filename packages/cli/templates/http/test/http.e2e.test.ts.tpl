import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { HttpListener } from '@toolwright/server/http';
import { {{appFactory}} } from '../src/app';
import { tokenAuth } from '../src/auth';

describe('{{serverName}} over Streamable HTTP, with bearer tokens', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    const app = await {{appFactory}}();
    // Port 0: a free port, so tests never collide; no request log in the test output.
    listener = await app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent', auth: tokenAuth({ MCP_TOKENS: 's3cret=ci' }, 'http://127.0.0.1/mcp') });
  });
  afterAll(() => listener.close());

  const connect = async (token: string) => {
    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(listener.url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
    return client;
  };

  it('serves the tools to a client with a valid token, which becomes the task owner', async () => {
    const client = await connect('s3cret');
    const result = await client.callTool({ name: 'add_task', arguments: { title: 'Rotate the tokens' } });
    expect(JSON.parse((result.content as { text: string }[])[0].text)).toMatchObject({ title: 'Rotate the tokens', owner: 'ci' });
    await client.close();
  });

  it('refuses a request without a valid token with 401', async () => {
    await expect(connect('wrong')).rejects.toThrow(/invalid_token/);
    const response = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.status).toBe(401);
  });

  it('asks a client without a token for one, and sends it to no authorization server', async () => {
    const response = await fetch(listener.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(response.headers.get('www-authenticate')).toBe('Bearer realm="mcp"');
    const base = listener.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/.well-known/oauth-protected-resource/mcp`)).status).toBe(404);
  });

  it('fails closed: without MCP_TOKENS it refuses to serve, unless anonymous access is asked for', () => {
    expect(() => tokenAuth({})).toThrow(/MCP_TOKENS is not set.*MCP_ALLOW_ANONYMOUS=1/);
    expect(() => tokenAuth({ MCP_ALLOW_ANONYMOUS: 'yes' })).toThrow(/MCP_TOKENS is not set/);
    expect(tokenAuth({ MCP_ALLOW_ANONYMOUS: '1' })).toBeUndefined();
  });

  it('reads tokens that end in = (base64), and never repeats a token in its errors', () => {
    const auth = tokenAuth({ MCP_TOKENS: 'c2VjcmV0IQ===ci, b3RoZXI==alice' })!;
    expect(auth.verifyToken('c2VjcmV0IQ==')).toMatchObject({ clientId: 'ci' });
    expect(auth.verifyToken('b3RoZXI=')).toMatchObject({ clientId: 'alice' });
    expect(() => tokenAuth({ MCP_TOKENS: 's3cret=ci,l3aked' })).toThrow(/^MCP_TOKENS: entry 2 of 2 is not token=client/);
    expect(() => tokenAuth({ MCP_TOKENS: 's3cret=ci,l3aked' })).not.toThrow(/l3aked/);
  });

  it('answers the health checks without a token', async () => {
    const base = listener.url.replace(/\/mcp$/, '');
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });
});
