import type { Server as NodeServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp, type App } from '@toolwright/server';
import { NoteTools as HttpNoteTools } from '../../../docs/snippets/http/notes.tools';
import { withExpress, withHono, withNodeHttp } from '../../../docs/snippets/http/mount';
import { NoteTools as SecuredNoteTools } from '../../../docs/snippets/security/notes.tools';
import { serveWithApiKeys } from '../../../docs/snippets/security/server';
import { sharedEventStore, type SharedKv } from '../../../docs/snippets/deployment/server';
import { connectClient, openRawSession, post, textOf } from './fixtures/httpHelpers';

/** The docs' HTTP snippets, run: mounting, the call context, API-key auth with the decorators, a shared event store. */
describe('docs snippets for HTTP, security and deployment', () => {
  let app: App;
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true))); // request logs
  afterEach(() => stderr.mockRestore());
  beforeAll(async () => {
    app = await createApp({ name: 'notes', version: '1.0.0', tools: [HttpNoteTools] });
  });

  it.each([
    ['node:http', withNodeHttp],
    ['express', withExpress],
    ['hono', withHono],
  ])('mounts the endpoint in %s', async (_name, mount) => {
    const server: NodeServer = mount(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const { client, transport } = await connectClient(url);
    expect(textOf(await client.callTool({ name: 'add_note', arguments: { text: 'hi' } }))).toBe(`Saved 'hi' for anonymous (session ${transport.sessionId}, node).`);
    await client.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('serves API keys with per-tool rules', async () => {
    const secured = await createApp({ name: 'secured', version: '1.0.0', tools: [SecuredNoteTools] });
    const listener = await serveWithApiKeys(secured, new Map([['k-1', { team: 'support', scopes: ['notes:read'] }]]), 0);
    try {
      const { client } = await connectClient(listener.url, { headers: { authorization: 'Bearer k-1' } });
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['count_notes', 'list_notes']);
      await client.close();
      expect((await post(listener.url, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { authorization: 'Bearer nope' })).status).toBe(401);
    } finally {
      await listener.close();
    }
  });

  it('resumes from a shared event store', async () => {
    const lists = new Map<string, string[]>();
    const kv: SharedKv = {
      append: async (list, value) => (lists.get(list) ?? lists.set(list, []).get(list)!).push(value),
      range: async (list, from) => (lists.get(list) ?? []).slice(from),
      drop: async (list) => void lists.delete(list),
    };
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, eventStore: sharedEventStore(kv) });
    const id = await openRawSession(listener.url);
    const headers = { 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    const raw = await (await post(listener.url, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'x' } } }, headers)).text();
    const [priming] = [...raw.matchAll(/^id: (.+)$/gm)].map((m) => m[1]);
    const resumed = await fetch(listener.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': priming } });
    const reader = resumed.body!.getReader();
    let text = '';
    while (!text.includes("Saved 'x'")) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    await listener.close();
    expect(lists.size).toBe(0); // the session's events were dropped when it closed
  });
});
