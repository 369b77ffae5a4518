import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema, LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { join } from 'node:path';
import { tokenTable } from './fixtures/authTokens';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

/**
 * The era matrix: one app (fixtures/eras-app.js), over a real stdio child process and real
 * HTTP on 127.0.0.1, driven by the v1 SDK `Client` at 2025-11-25, 2025-06-18 and 2025-03-26
 * and by the v2 `Client` negotiating 2026-07-28 (`versionNegotiation: auto`). The same tool
 * classes serve all of them; only what the spec changes between eras differs.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };
const FIXTURE = join(__dirname, 'fixtures', 'eras-app.js');
const LOG_LEVEL_KEY = 'io.modelcontextprotocol/logLevel';

type Era = 'legacy' | 'modern';
type Kind = 'stdio' | 'http';
interface Row {
  kind: Kind;
  version: '2025-11-25' | '2025-06-18' | '2025-03-26' | '2026-07-28';
}
/** What each test needs of a client, whichever SDK major it comes from. */
interface Driven {
  era: Era;
  client: LegacyClient | ModernClient;
  logs: string[];
  /** Every progress value the transport received, in wire order, whether or not the client then handled it. */
  progressOnWire: number[];
  listChanges: number;
  close(): Promise<void>;
}

const rows: Row[] = (['stdio', 'http'] as const).flatMap((kind) => (['2025-11-25', '2025-06-18', '2025-03-26', '2026-07-28'] as const).map((version) => ({ kind, version })));

/** The v1 client always offers its latest revision; this makes it offer an older one, as an older client does. */
function offering(transport: Transport, version: string): Transport {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    if ('method' in message && message.method === 'initialize' && message.params) message = { ...message, params: { ...message.params, protocolVersion: version } };
    return send(message, options);
  };
  return transport;
}

/** Records the progress values of every notification the transport delivers, before the client's own handling. */
function recordProgress(transport: { onmessage?: (message: never, extra?: never) => void }, into: number[]): void {
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    const m = message as { method?: string; params?: { progress?: number } };
    if (m.method === 'notifications/progress') into.push(m.params!.progress!);
    deliver(message, extra);
  };
}

/** `callTool` with request options: v1 takes a result schema first, v2 does not. */
function callTool(
  c: Driven,
  params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
  options: { signal?: AbortSignal; onprogress?: (p: { progress: number }) => void },
) {
  return c.client instanceof ModernClient ? c.client.callTool(params, options) : c.client.callTool(params, undefined, options);
}

const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

describe.each(rows)('$kind, client at $version', ({ kind, version }) => {
  const era: Era = version === '2026-07-28' ? 'modern' : 'legacy';
  let app: App | undefined;
  let listener: HttpListener | undefined;
  let url = '';

  beforeAll(async () => {
    if (kind === 'stdio') return;
    app = await createErasApp();
    // The protected resource's URL names the port: learn a free one first.
    const probe = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const { port } = probe;
    await probe.close();
    url = `http://127.0.0.1:${port}/mcp`;
    listener = await app.listen({
      transport: 'http',
      port,
      requestLogLevel: 'silent',
      exitOnSignal: false,
      auth: { verifyToken: tokenTable(() => url), resource: url, authorizationServers: ['https://auth.example.com'] },
    });
  });
  afterAll(() => listener?.close());

  async function connect(token = 'reader'): Promise<Driven> {
    const logs: string[] = [];
    const headers = { authorization: `Bearer ${token}` };
    const driven: Omit<Driven, 'client' | 'close'> = { era, logs, progressOnWire: [], listChanges: 0 };
    if (era === 'legacy') {
      const client = new LegacyClient({ name: 'legacy', version: '1' }, { capabilities: { elicitation: {} } });
      client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
      client.setNotificationHandler(ToolListChangedNotificationSchema, () => void driven.listChanges++);
      client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
      const transport = kind === 'stdio' ? new LegacyStdio({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }) : new LegacyHttp(new URL(url), { requestInit: { headers } });
      await client.connect(offering(transport, version));
      recordProgress(transport as never, driven.progressOnWire);
      expect(client.getServerVersion()?.name).toBe('eras');
      return Object.assign(driven, { client, close: () => client.close() });
    }
    const client = new ModernClient({ name: 'modern', version: '1' }, { capabilities: { elicitation: {} }, versionNegotiation: { mode: 'auto' } });
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { name: 'Ada' } }));
    client.setNotificationHandler('notifications/message', (n) => void logs.push(String(n.params.data)));
    client.setNotificationHandler('notifications/tools/list_changed', () => void driven.listChanges++);
    const transport = kind === 'stdio' ? new ModernStdio({ command: process.execPath, args: [FIXTURE], stderr: 'ignore' }) : new ModernHttp(new URL(url), { requestInit: { headers } });
    await client.connect(transport);
    recordProgress(transport as never, driven.progressOnWire);
    expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
    return Object.assign(driven, { client, close: () => client.close() });
  }

  let c: Driven;
  beforeAll(async () => {
    c = await connect();
  });
  afterAll(() => c?.close());

  it('serves tools in the negotiated era, with the envelope on ctx', async () => {
    const { tools } = await c.client.listTools();
    // `write` needs the notes:write scope: a caller without it does not see it listed.
    expect(tools.map((t) => t.name).sort()).toEqual(['ask', 'echo', 'wait', 'work']);
    expect(textOf(await c.client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe(`${era} ${version}: hi`);
    const bad = await c.client.callTool({ name: 'echo', arguments: { text: 3 } });
    expect(bad.isError).toBe(true);
  });

  it('serves resources and templates; an unknown URI is -32602 with the URI', async () => {
    const config = await c.client.readResource({ uri: 'mem://config' });
    expect(config.contents).toEqual([{ uri: 'mem://config', mimeType: 'application/json', text: '{"debug":false}' }]);
    expect((await c.client.readResource({ uri: 'mem://notes/7' })).contents[0]).toMatchObject({ text: 'note 7' });
    expect((await c.client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['mem://notes/{id}']);
    await expect(c.client.readResource({ uri: 'nope://x' })).rejects.toMatchObject({ code: -32602 });
  });

  it('serves prompts and completions', async () => {
    const prompt = await c.client.getPrompt({ name: 'greet', arguments: { name: 'Ada' } });
    expect(prompt.messages[0].content).toMatchObject({ type: 'text', text: 'Say hello to Ada.' });
    const done = await c.client.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'name', value: 'A' } });
    expect(done.completion.values).toEqual(['Ada', 'Alan']);
    const ids = await c.client.complete({ ref: { type: 'ref/resource', uri: 'mem://notes/{id}' }, argument: { name: 'id', value: '1' } });
    expect(ids.completion.values).toEqual(['1', '12']);
  });

  it('sends progress and logs on the call, at the level the client asked for', async () => {
    const progress: number[] = [];
    const _meta = era === 'modern' ? { [LOG_LEVEL_KEY]: 'info' } : undefined;
    const onWire = c.progressOnWire.length;
    const result = await callTool(c, { name: 'work', arguments: { steps: 3 }, ...(_meta && { _meta }) }, { onprogress: (p) => void progress.push(p.progress) });
    expect(textOf(result)).toBe('worked 3');
    // All three came before the answer. The client may drop the last one all the same: when it
    // reads it together with the answer (a loaded machine), the SDK's Protocol handles the answer
    // first and forgets the call's progress handler
    // (https://github.com/modelcontextprotocol/typescript-sdk/issues/2580).
    expect(c.progressOnWire.slice(onWire)).toEqual([1, 2, 3]);
    expect([
      [1, 2],
      [1, 2, 3],
    ]).toContainEqual(progress);
    expect(c.logs.slice(-3)).toEqual(['step 1', 'step 2', 'step 3']);
    if (era === 'modern') {
      // No level in the envelope: the 2026-07-28 client asked for no log notifications.
      const before = c.logs.length;
      await c.client.callTool({ name: 'work', arguments: { steps: 1 } });
      expect(c.logs.length).toBe(before);
    }
  });

  it('cancels a running call and keeps serving', async () => {
    const aborted = new AbortController();
    // Cancelled once the call is under way: its first progress notification says so.
    const running = callTool(c, { name: 'wait', arguments: { ms: 10_000 } }, { signal: aborted.signal, onprogress: () => aborted.abort() });
    await expect(running).rejects.toThrow();
    expect(textOf(await c.client.callTool({ name: 'echo', arguments: { text: 'after' } }))).toContain('after');
  });

  it('asks the client with ctx.elicit: a request on a 2025 session, an input_required round on a 2026-07-28 request', async () => {
    const result = await c.client.callTool({ name: 'ask', arguments: {} });
    expect(textOf(result)).toBe('hello Ada');
  });

  if (kind === 'http') {
    it('announces list changes (2025: to the session; 2026-07-28: to subscriptions/listen)', async () => {
      const subscription = era === 'modern' ? await (c.client as ModernClient).listen({ toolsListChanged: true }) : undefined;
      app!.tools.disable('wait');
      await waitFor(() => c.listChanges > 0, 'the list change');
      expect(c.listChanges).toBe(1);
      expect((await c.client.listTools({})).tools.map((t) => t.name)).not.toContain('wait');
      app!.tools.enable('wait');
      await subscription?.close();
    });

    it('holds bearer auth and scopes: 401 without a token; a tool the token lacks scopes for is answered as an unknown tool', async () => {
      const meta = era === 'modern' ? { 'io.modelcontextprotocol/protocolVersion': version, 'io.modelcontextprotocol/clientCapabilities': {} } : undefined;
      const call = { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'write', arguments: { note: 'x' }, ...(meta && { _meta: meta }) } };
      const modernHeaders: Record<string, string> = era === 'modern' ? { 'mcp-protocol-version': version, 'mcp-method': 'tools/call', 'mcp-name': 'write' } : {};
      expect((await post(url, call, modernHeaders)).status).toBe(401);
      // No scope hints (createApp({ scopeHints: true }) would answer 403 naming the scope): the tool stays hidden.
      const reader = { authorization: 'Bearer reader' };
      const session: Record<string, string> = era === 'modern' ? {} : { 'mcp-session-id': await openRawSession(url, reader), 'mcp-protocol-version': '2025-11-25' };
      const refused = await post(url, call, { ...modernHeaders, ...reader, ...session });
      expect(refused.status).toBe(200);
      const [answer] = await messagesOf(refused);
      expect(answer).toMatchObject({ id: 9, error: { code: -32602, message: "Unknown tool 'write'. Call tools/list to see the available tools." } });
      const writer = await connect('writer');
      expect(textOf(await writer.client.callTool({ name: 'write', arguments: { note: 'x' } }))).toBe('wrote x');
      await writer.close();
    });
  }
});

describe('the 2026-07-28 wire over HTTP, raw', () => {
  let listener: HttpListener;
  const envelope = (version = '2026-07-28') => ({
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  });
  const rpc = (method: string, params: Record<string, unknown> = {}, version?: string) => ({ jsonrpc: '2.0', id: 1, method, params: { ...params, _meta: envelope(version) } });
  const send = async (body: unknown, headers: Record<string, string>) => {
    const response = await post(listener.url, body, headers);
    const text = await response.text();
    const data = text.split('\n').find((line) => line.startsWith('data: ') && line.length > 6);
    return { status: response.status, message: JSON.parse(data ? data.slice(6) : text) as { result?: Record<string, unknown>; error?: { code: number; message: string } } };
  };
  const modern = (method: string, name?: string) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name && { 'mcp-name': name }) });

  beforeAll(async () => {
    listener = await (await createErasApp()).listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it('answers server/discover with versions, capabilities and instructions', async () => {
    const { message } = await send(rpc('server/discover'), modern('server/discover'));
    expect(message.result).toMatchObject({
      supportedVersions: ['2026-07-28'],
      instructions: 'Call echo first.',
      capabilities: { tools: { listChanged: true }, prompts: {}, resources: {} },
      resultType: 'complete',
    });
  });

  it('puts resultType and cache hints on results: the app default on lists, @Resource({ cache }) on its reads', async () => {
    const list = await send(rpc('tools/list'), modern('tools/list'));
    expect(list.message.result).toMatchObject({ resultType: 'complete', ttlMs: 60_000, cacheScope: 'private' });
    const read = await send(rpc('resources/read', { uri: 'mem://config' }), modern('resources/read', 'mem://config'));
    expect(read.message.result).toMatchObject({ resultType: 'complete', ttlMs: 5000, cacheScope: 'public' });
    const note = await send(rpc('resources/read', { uri: 'mem://notes/1' }), modern('resources/read', 'mem://notes/1'));
    expect(note.message.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
  });

  it('refuses a header that contradicts the envelope (-32020), an unknown version (-32022), a wrong Mcp-Name (-32020)', async () => {
    const mismatch = await send(rpc('tools/list'), { ...modern('tools/list'), 'mcp-protocol-version': '2025-11-25' });
    expect(mismatch).toMatchObject({ status: 400, message: { error: { code: -32020 } } });
    const unknown = await send(rpc('tools/list', {}, '2027-01-01'), { 'mcp-protocol-version': '2027-01-01', 'mcp-method': 'tools/list' });
    expect(unknown.message.error?.code).toBe(-32022);
    const name = await send(rpc('tools/call', { name: 'echo', arguments: { text: 'x' } }), modern('tools/call', 'other'));
    expect(name.message.error?.code).toBe(-32020);
  });

  it('answers a 2025-era tools/call with a malformed name or arguments with -32602', async () => {
    const session = (
      await post(listener.url, { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })
    ).headers.get('mcp-session-id')!;
    await post(listener.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': session });
    for (const params of [{ arguments: {} }, { name: 'echo', arguments: [1] }]) {
      const { message } = await send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params }, { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
      expect(message.error?.code).toBe(-32602);
    }
  });
});
