import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, connectClient, initializeBody, openRawSession, post, rawRequest, textOf } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const rpcError = (code: number, text: string) => ({ jsonrpc: '2.0', id: null, error: { code, message: expect.stringContaining(text) } });

describe('Streamable HTTP: every refusal has its status code, and the server keeps serving', () => {
  let app: App;
  let listener: HttpListener;
  const extra: HttpListener[] = [];
  const listen = async (options: Record<string, unknown>) => {
    const l = await app.listen({ transport: 'http', port: 0, ...quiet, ...options });
    extra.push(l);
    return l;
  };

  beforeAll(async () => {
    app = await createApp({ name: 'security', version: '1.0.0', tools: [HttpTools] });
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, maxBodyBytes: 1024 });
  });
  afterAll(() => Promise.all([listener.close(), ...extra.map((l) => l.close())]));

  it('403 for an Origin that is not allowed; localhost origins and no Origin pass', async () => {
    const bad = await post(listener.url, initializeBody(), { origin: 'https://evil.example' });
    expect(bad.status).toBe(403);
    const text = await bad.text();
    expect(JSON.parse(text)).toEqual(rpcError(-32000, 'the Origin header names a web origin that is not allowed'));
    expect(text).not.toContain('evil.example');
    for (const origin of ['http://localhost:5173', 'http://127.0.0.1', 'https://[::1]:8443']) {
      const ok = await post(listener.url, initializeBody(), { origin });
      expect(ok.status).toBe(200);
      await ok.text();
    }
  });

  it('allowedOrigins replaces the localhost default', async () => {
    const l = await listen({ allowedOrigins: ['https://app.example.com'] });
    expect((await post(l.url, initializeBody(), { origin: 'http://localhost:3000' })).status).toBe(403);
    const ok = await post(l.url, initializeBody(), { origin: 'https://app.example.com' });
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('403 for a foreign Host on a loopback address (DNS rebinding); loopback names on any port pass', async () => {
    const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    const body = JSON.stringify(initializeBody());
    const rebound = await rawRequest(listener.url, { method: 'POST', headers: { ...headers, host: `attacker.example:${listener.port}` }, body });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual(rpcError(-32000, 'the Host header names a host this server does not answer to'));
    expect(rebound.body).not.toContain('attacker.example');
    for (const host of ['localhost', `127.0.0.1:${listener.port}`, '[::1]:1234']) {
      expect((await rawRequest(listener.url, { method: 'POST', headers: { ...headers, host }, body })).status).toBe(200);
    }
  });

  it('allowedHosts lets a public name through and keeps refusing others', async () => {
    const l = await listen({ allowedHosts: ['mcp.example.com'] });
    const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
    const body = JSON.stringify(initializeBody());
    expect((await rawRequest(l.url, { method: 'POST', headers: { ...headers, host: 'mcp.example.com' }, body })).status).toBe(200);
    expect((await rawRequest(l.url, { method: 'POST', headers: { ...headers, host: 'other.example.com' }, body })).status).toBe(403);
  });

  it('413 for a body over the limit (by Content-Length and by streamed size)', async () => {
    const big = JSON.stringify({ ...initializeBody(), pad: 'x'.repeat(2000) });
    const declared = await post(listener.url, big);
    expect(declared.status).toBe(413);
    expect(await declared.json()).toEqual(rpcError(-32000, 'Payload too large'));
    const chunked = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
  });

  it('406 without both media types in Accept; 415 without a JSON Content-Type', async () => {
    const wrongAccept = await post(listener.url, initializeBody(), { accept: 'application/json' });
    expect(wrongAccept.status).toBe(406);
    expect(await wrongAccept.json()).toEqual(rpcError(-32000, 'Not Acceptable'));
    const wrongType = await post(listener.url, initializeBody(), { 'content-type': 'text/plain' });
    expect(wrongType.status).toBe(415);
    expect(await wrongType.json()).toEqual(rpcError(-32000, 'Unsupported Media Type'));
    const getWithoutSse = await fetch(listener.url, { headers: { accept: 'application/json' } });
    expect(getWithoutSse.status).toBe(406);
  });

  it('400 with -32700 for a body that is not JSON', async () => {
    const response = await post(listener.url, '{"jsonrpc": "2.0", "id": 1,');
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual(rpcError(-32700, 'Parse error'));
  });

  it('400 for a request without a session id; 404 for an unknown one', async () => {
    const missing = await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toEqual(rpcError(-32000, 'Mcp-Session-Id header is required'));
    const unknown = await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, { 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual(rpcError(-32001, 'Session not found'));
  });

  it('400 for an unsupported MCP-Protocol-Version; any supported one is accepted, as the SDK does', async () => {
    const id = await openRawSession(listener.url);
    const unsupported = await post(listener.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' });
    expect(unsupported.status).toBe(400);
    expect(await unsupported.json()).toEqual(rpcError(-32000, 'the MCP-Protocol-Version header names no supported version. Supported: 2025-11-25'));
    // The conformance suite sends 2025-03-26 on a session that negotiated 2025-11-25 (server-sse-multiple-streams).
    const other = await post(listener.url, { jsonrpc: '2.0', id: 4, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' });
    expect(other.status).toBe(200);
    await other.text();
    const fine = await post(listener.url, { jsonrpc: '2.0', id: 5, method: 'tools/list' }, { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' });
    expect(fine.status).toBe(200);
    await fine.text();
  });

  it('405 for other methods, with Allow', async () => {
    const response = await fetch(listener.url, { method: 'PUT' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, POST, DELETE');
  });

  it('CORS is off by default: no Access-Control headers, preflight refused', async () => {
    const response = await post(listener.url, initializeBody(), { origin: 'http://localhost:5173' });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    await response.text();
    expect((await fetch(listener.url, { method: 'OPTIONS', headers: { origin: 'http://localhost:5173' } })).status).toBe(405);
  });

  it('CORS opt-in answers preflights and exposes the MCP headers', async () => {
    const l = await listen({ cors: { origins: ['https://app.example.com'] }, allowedOrigins: ['https://app.example.com'] });
    const preflight = await fetch(l.url, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, mcp-session-id' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('https://app.example.com');
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Mcp-Session-Id');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    const response = await post(l.url, initializeBody(), { origin: 'https://app.example.com' });
    expect(response.headers.get('access-control-expose-headers')).toBe('Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate');
    expect(response.headers.get('mcp-session-id')).toBeTruthy();
    await response.text();
  });

  it('keeps serving a real client after all of the above', async () => {
    const { client } = await connectClient(listener.url);
    expect(textOf(await client.callTool({ name: 'slow', arguments: { ms: 0 } }))).toBe('slept 0');
    await client.close();
  });

  it('logs one JSON line per request with method, status, duration, session and request id', async () => {
    const lines: string[] = [];
    const l = await listen({ requestLogLevel: 'info', logWrite: (line: string) => lines.push(line) });
    const id = await openRawSession(l.url);
    const call = await post(l.url, { jsonrpc: '2.0', id: 42, method: 'tools/call', params: { name: 'slow', arguments: { ms: 1 } } }, { 'mcp-session-id': id });
    await call.text();
    await (await post(l.url, '{', {})).text();
    // A request's line is written when its response has finished, which the client may see first.
    const entries = await waitFor(() => {
      const logged = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      return logged.some((e) => e.rpc === 'tools/call') && logged.some((e) => e.status === 400) && logged;
    }, 'the call and the refusal logged');
    expect(entries.find((e) => e.rpc === 'tools/call')).toMatchObject({ level: 'info', msg: 'http request', method: 'POST', path: '/mcp', status: 200, session: id, id: 42, ms: expect.any(Number) });
    expect(entries.find((e) => e.status === 400)).toMatchObject({ level: 'warn' });
    expect(entries.find((e) => e.rpc === 'initialize')).toMatchObject({ session: id });
    const warnOnly: string[] = [];
    const w = await listen({ requestLogLevel: 'warn', logWrite: (line: string) => warnOnly.push(line) });
    await openRawSession(w.url);
    await (await post(w.url, '{', {})).text();
    await waitFor(() => warnOnly.length > 0, 'the refusal logged');
    expect(warnOnly.map((line) => JSON.parse(line).status)).toEqual([400]);
  });
});
