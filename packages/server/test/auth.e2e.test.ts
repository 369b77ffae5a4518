import { RequireScopes, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { AdminTools, HttpTools, NoteTools } from './fixtures/http.tools';
import { tokenTable } from './fixtures/authTokens';
import { connectClient, initializeBody, jsonOf, messagesOf, openRawSession, post, textOf } from './fixtures/httpHelpers';

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const callBody = (name: string, id = 5) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

describe('HTTP bearer auth, RFC 9728 metadata and per-tool authorization', () => {
  let app: App;
  let listener: HttpListener;
  let anonymous: HttpListener;
  let strict: HttpListener;
  let origin = '';
  const resource = () => `${origin}/mcp`;
  const authOptions = (extra: Record<string, unknown> = {}) => ({
    verifyToken: tokenTable(resource),
    get resource() {
      return resource();
    },
    authorizationServers: ['https://auth.example.com'],
    scopesSupported: ['notes:read', 'notes:write'],
    resourceName: 'Notes',
    ...extra,
  });

  beforeAll(async () => {
    // Scope hints on: a call missing scopes gets 403 insufficient_scope naming them (step-up authorization).
    app = await createApp({ name: 'auth', version: '1.0.0', tools: [HttpTools, NoteTools, AdminTools], scopeHints: true });
    // Learn a free port first: the resource URL contains it.
    const probe = await app.listen({ transport: 'http', port: 0, ...quiet });
    const port = probe.port;
    await probe.close();
    origin = `http://127.0.0.1:${port}`;
    listener = await app.listen({ transport: 'http', port, ...quiet, auth: authOptions() });
    anonymous = await app.listen({ transport: 'http', port: 0, ...quiet, auth: authOptions({ allowAnonymous: true }) });
    strict = await app.listen({ transport: 'http', port: 0, ...quiet, auth: authOptions({ requiredScopes: ['notes:read'] }) });
  });
  afterAll(() => Promise.all([listener.close(), anonymous.close(), strict.close()]));

  const metadataUrl = () => `${origin}/.well-known/oauth-protected-resource/mcp`;

  it('401 without a token, pointing to the protected resource metadata', async () => {
    const response = await post(listener.url, initializeBody());
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${metadataUrl()}"`);
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('serves RFC 9728 metadata at the path-suffixed and the root well-known URLs, without auth', async () => {
    for (const url of [metadataUrl(), `${origin}/.well-known/oauth-protected-resource`]) {
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: resource(),
        authorization_servers: ['https://auth.example.com'],
        bearer_methods_supported: ['header'],
        scopes_supported: ['notes:read', 'notes:write'],
        resource_name: 'Notes',
      });
    }
  });

  it.each([
    ['an unknown token', 'Bearer nobody', 'invalid_token'],
    ['an expired token', 'Bearer expired', 'invalid_token'],
    ['a token for another resource', 'Bearer elsewhere', 'invalid_token'],
    ['a malformed header', 'Basic dXNlcjpwYXNz', 'invalid_request'],
  ])('401 for %s, with the error in WWW-Authenticate', async (_what, authorization, error) => {
    const response = await post(listener.url, initializeBody(), { authorization });
    expect(response.status).toBe(401);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain(`error="${error}"`);
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    expect(((await response.json()) as { error: string }).error).toBe(error);
  });

  it('accepts a token issued for this resource', async () => {
    const response = await post(listener.url, initializeBody(), bearer('mine'));
    expect(response.status).toBe(200);
    await response.text();
  });

  it('403 insufficient_scope when the endpoint requires scopes the token lacks', async () => {
    const response = await post(strict.url, initializeBody(), bearer('admin'));
    expect(response.status).toBe(403);
    expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope", error_description=');
    expect(response.headers.get('www-authenticate')).toContain('scope="notes:read"');
    const ok = await post(strict.url, initializeBody(), bearer('reader'));
    expect(ok.status).toBe(200);
    await ok.text();
  });

  it('hides tools the caller may not use from tools/list', async () => {
    const names = async (token: string) => {
      const { client } = await connectClient(listener.url, { headers: bearer(token) });
      const { tools } = await client.listTools();
      await client.close();
      return tools.map((t) => t.name).sort();
    };
    expect(await names('reader')).toEqual(['note_count', 'read_notes', 'slow', 'whoami']);
    expect(await names('writer')).toEqual(['note_count', 'read_notes', 'slow', 'whoami', 'write_note']);
    expect(await names('admin')).toEqual(['note_count', 'restart', 'slow', 'whoami']);
  });

  it('gives tools the caller identity through the context', async () => {
    const { client } = await connectClient(listener.url, { headers: bearer('writer') });
    expect(jsonOf(await client.callTool({ name: 'whoami', arguments: {} }))).toMatchObject({ clientId: 'app-1', scopes: ['notes:read', 'notes:write'] });
    expect(textOf(await client.callTool({ name: 'write_note', arguments: {} }))).toBe('written');
    await client.close();
  });

  it('refuses a call to a tool needing more scopes with 403 insufficient_scope, naming the scopes to request', async () => {
    const session = await openRawSession(listener.url, bearer('reader'));
    const response = await post(listener.url, callBody('write_note'), { ...bearer('reader'), 'mcp-session-id': session });
    expect(response.status).toBe(403);
    const challenge = response.headers.get('www-authenticate')!;
    expect(challenge).toContain('error="insufficient_scope"');
    expect(challenge).toContain('scope="notes:read notes:write"');
    expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
    const { client } = await connectClient(listener.url, { headers: bearer('reader') });
    await expect(client.callTool({ name: 'write_note', arguments: {} })).rejects.toThrow(/403|insufficient_scope/);
    await client.close();
  });

  it('refuses with 403 insufficient_scope for a tool added at runtime too', async () => {
    class ArchiveTools {
      @RequireScopes('notes:archive')
      @Tool({ description: 'Archives the notes.' })
      archiveNotes() {
        return 'archived';
      }
    }
    await app.add(ArchiveTools);
    try {
      const session = await openRawSession(listener.url, bearer('writer'));
      const response = await post(listener.url, callBody('archive_notes'), { ...bearer('writer'), 'mcp-session-id': session });
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('scope="notes:read notes:write notes:archive"');
    } finally {
      app.tools.remove('archive_notes');
    }
  });

  it('refuses a call to a tool needing a role as one of an unknown tool (scope hints name scopes, never roles), and keeps the session usable', async () => {
    const { client } = await connectClient(listener.url, { headers: bearer('reader') });
    await expect(client.callTool({ name: 'restart', arguments: {} })).rejects.toThrow("Unknown tool 'restart'. Call tools/list to see the available tools.");
    expect(textOf(await client.callTool({ name: 'read_notes', arguments: {} }))).toBe('notes');
    await client.close();
    const { client: ops } = await connectClient(listener.url, { headers: bearer('admin') });
    expect(textOf(await ops.callTool({ name: 'restart', arguments: {} }))).toBe('restarted');
    await ops.close();
  });

  it('binds a session to the principal that opened it: another token gets 404', async () => {
    const session = await openRawSession(listener.url, bearer('reader'));
    const stolen = await post(listener.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...bearer('writer'), 'mcp-session-id': session });
    expect(stolen.status).toBe(404);
    const own = await post(listener.url, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, { ...bearer('reader'), 'mcp-session-id': session });
    expect(own.status).toBe(200);
    await own.text();
  });

  it('with allowAnonymous, callers without a token see only open and public tools, and get 401 for scoped ones', async () => {
    const { client } = await connectClient(anonymous.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['note_count', 'slow', 'whoami']);
    expect(textOf(await client.callTool({ name: 'note_count', arguments: {} }))).toBe('3');
    await client.close();
    const session = await openRawSession(anonymous.url);
    const refused = await post(anonymous.url, callBody('read_notes'), { 'mcp-session-id': session });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('scope="notes:read"');
    const invalid = await post(anonymous.url, initializeBody(), bearer('nobody'));
    expect(invalid.status).toBe(401);
  });

  it('keeps filtering the runtime catalog: a disabled tool stays hidden from callers who may use it', async () => {
    const names = async () => {
      const { client } = await connectClient(listener.url, { headers: bearer('writer') });
      const { tools } = await client.listTools();
      await client.close();
      return tools.map((t) => t.name);
    };
    app.tools.disable('write_note');
    expect(await names()).not.toContain('write_note');
    app.tools.enable('write_note');
    expect(await names()).toContain('write_note');
  });

  it('the same rules hold in stateless mode', async () => {
    const l = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true, auth: authOptions() });
    const response = await post(l.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, bearer('reader'));
    const [message] = await messagesOf(response);
    expect((message.result as { tools: { name: string }[] }).tools.map((t) => t.name).sort()).toEqual(['note_count', 'read_notes', 'slow', 'whoami']);
    expect((await post(l.url, callBody('write_note'), bearer('reader'))).status).toBe(403);
    await l.close();
  });
});
