import 'reflect-metadata';
import { join } from 'node:path';
import type { App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as LegacyHttp } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, ElicitRequestSchema, ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdio } from '@modelcontextprotocol/client/stdio';
import { createConformanceApp } from '../src/app';

const SERVER = join(__dirname, '..', 'dist', 'server.js');
const CAPABILITIES = { elicitation: {}, sampling: {}, roots: {} };
const MODERN = { capabilities: CAPABILITIES, versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;

/** What a client was asked, in order: the same list in both eras. */
type Asked = string[];

/** Answers like a user and a model would: names and colors by the form's fields, a model reply, one root. */
function answer(kind: string, params: { message?: string; requestedSchema?: { properties?: object }; messages?: { content: { text?: string } }[] }) {
  if (kind === 'elicitation/create') {
    const fields = Object.keys(params.requestedSchema?.properties ?? {});
    const content = Object.fromEntries(fields.map((f) => [f, f === 'ok' ? true : f === 'color' ? 'blue' : 'Ada']));
    return { action: 'accept' as const, content };
  }
  if (kind === 'sampling/createMessage') return { role: 'assistant' as const, content: { type: 'text' as const, text: `reply to ${params.messages?.[0]?.content.text}` }, model: 'test-model' };
  return { roots: [{ uri: 'file:///work', name: 'work' }] };
}

function legacyClient(asked: Asked): LegacyClient {
  const client = new LegacyClient({ name: 'legacy', version: '1.0.0' }, { capabilities: CAPABILITIES });
  client.setRequestHandler(ElicitRequestSchema, (r) => (asked.push(`elicit: ${r.params.message}`), answer('elicitation/create', r.params as never)));
  client.setRequestHandler(CreateMessageRequestSchema, (r) => (asked.push('sample'), answer('sampling/createMessage', r.params as never)) as never);
  client.setRequestHandler(ListRootsRequestSchema, () => (asked.push('roots'), answer('roots/list', {})) as never);
  return client;
}

function modernClient(asked: Asked): ModernClient {
  const client = new ModernClient({ name: 'modern', version: '1.0.0' }, MODERN);
  client.setRequestHandler('elicitation/create', (r) => (asked.push(`elicit: ${r.params.message}`), answer('elicitation/create', r.params as never)) as never);
  client.setRequestHandler('sampling/createMessage', (r) => (asked.push('sample'), answer('sampling/createMessage', r.params as never)) as never);
  client.setRequestHandler('roots/list', () => (asked.push('roots'), answer('roots/list', {})) as never);
  return client;
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0].text;

/** The round-trip fixtures, driven the same way through any connected client of either era. */
async function exercise(client: LegacyClient | ModernClient, asked: Asked) {
  const call = (name: string) => client.callTool({ name, arguments: {} }) as Promise<{ content?: unknown; isError?: boolean }>;
  expect(text(await call('test_input_required_result_multiple_inputs'))).toBe('reply to Generate a greeting Ada; roots: file:///work');
  expect(asked.splice(0)).toEqual(['elicit: What is your name?', 'sample', 'roots']);
  expect(text(await call('test_input_required_result_multi_round'))).toBe('Ada likes blue.');
  expect(asked.splice(0)).toEqual(['elicit: Step 1: What is your name?', 'elicit: Step 2: What is your favorite color, Ada?']);
  const prompt = await client.getPrompt({ name: 'test_input_required_result_prompt' });
  expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: 'Use this context: Ada' } }]);
  expect(asked.splice(0)).toEqual(['elicit: What context should the prompt use?']);
}

describe('client round trips, one ctx API in both eras', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const httpListener = async (options: Record<string, unknown> = {}) => {
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, ...options });
    listeners.push(listener);
    return listener;
  };
  beforeAll(async () => {
    app = await createConformanceApp();
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  it('2025 era over stdio (SDK v1 client): each question is a request to the client', async () => {
    const asked: Asked = [];
    const client = legacyClient(asked);
    await client.connect(new LegacyStdio({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('2025 era over a stateful HTTP session (SDK v1 client)', async () => {
    const asked: Asked = [];
    const client = legacyClient(asked);
    await client.connect(new LegacyHttp(new URL((await httpListener()).url)));
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('2025 era over stateless HTTP: the tool gets a clear error it can report', async () => {
    const asked: Asked = [];
    const client = legacyClient(asked);
    await client.connect(new LegacyHttp(new URL((await httpListener({ stateless: true })).url)));
    try {
      const result = (await client.callTool({ name: 'test_input_required_result_elicitation', arguments: {} })) as { content: unknown; isError?: boolean };
      expect(result.isError).toBe(true);
      expect(text(result)).toMatch(/cannot ask the client .* stateless/);
      expect(asked).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 over stdio (SDK v2 client): input_required rounds, the method runs again with the answers', async () => {
    const asked: Asked = [];
    const client = modernClient(asked);
    await client.connect(new ModernStdio({ command: process.execPath, args: [SERVER], stderr: 'ignore' }));
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });

  it('2026-07-28 over HTTP (SDK v2 client), on the same endpoint as the 2025 era', async () => {
    const asked: Asked = [];
    const client = modernClient(asked);
    await client.connect(new ModernHttp(new URL((await httpListener()).url)));
    try {
      await exercise(client, asked);
    } finally {
      await client.close();
    }
  });
});

describe('2026-07-28 round trips on the wire', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    listener = await (await createConformanceApp()).listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  const envelope = (capabilities: object = CAPABILITIES) => ({
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': capabilities,
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  });
  let id = 0;
  async function call(name: string, extra: Record<string, unknown> = {}, capabilities?: object) {
    const res = await fetch(listener.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: {}, ...extra, _meta: envelope(capabilities) } }),
    });
    const body = await res.text();
    const json = res.headers.get('content-type')?.startsWith('text/event-stream')
      ? JSON.parse(
          body
            .split('\n')
            .filter((l) => l.startsWith('data:') && l.length > 6)
            .pop()!
            .slice(5),
        )
      : JSON.parse(body);
    return { status: res.status, ...json } as {
      status: number;
      result?: Record<string, unknown> & { requestState?: string; inputRequests?: Record<string, { method: string }> };
      error?: { code: number; message: string; data?: unknown };
    };
  }
  const NAME = { action: 'accept', content: { name: 'Ada' } };

  it('asks with input_required and a signed requestState, and completes with the answer', async () => {
    const r1 = await call('test_input_required_result_elicitation');
    expect(r1.result).toMatchObject({ resultType: 'input_required', inputRequests: { user_name: { method: 'elicitation/create' } } });
    expect(typeof r1.result!.requestState).toBe('string');
    const r2 = await call('test_input_required_result_elicitation', { inputResponses: { user_name: NAME }, requestState: r1.result!.requestState });
    expect(r2.result).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it('refuses a tampered, replayed or foreign requestState with -32602', async () => {
    const r1 = await call('test_input_required_result_elicitation');
    const state = r1.result!.requestState!;
    // One character changed inside: the seal does not hold. One added: not the text the server issued at all.
    const at = Math.floor(state.length / 2);
    const changed = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    const tampered = await call('test_input_required_result_elicitation', { inputResponses: { user_name: NAME }, requestState: changed });
    expect(tampered.error).toMatchObject({ code: -32602, message: expect.stringMatching(/integrity check/) });
    const added = await call('test_input_required_result_elicitation', { inputResponses: { user_name: NAME }, requestState: `${state}-TAMPERED` });
    expect(added.error).toMatchObject({ code: -32602, message: expect.stringMatching(/not a state this server issued/) });
    const foreign = await call('test_input_required_result_tampered_state', { inputResponses: { confirm: { action: 'accept', content: { ok: true } } }, requestState: state });
    expect(foreign.error).toMatchObject({ code: -32602, message: expect.stringMatching(/another request or caller/) });
    await call('test_input_required_result_elicitation', { inputResponses: { user_name: NAME }, requestState: state });
    const replayed = await call('test_input_required_result_elicitation', { inputResponses: { user_name: NAME }, requestState: state });
    expect(replayed.error).toMatchObject({ code: -32602, message: expect.stringMatching(/already used/) });
  });

  it('asks only what the client declared, and refuses a question it cannot answer with -32021 (HTTP 400)', async () => {
    const samplingOnly = await call('test_input_required_result_capabilities', {}, { sampling: {} });
    expect(Object.values(samplingOnly.result!.inputRequests!).map((r) => r.method)).toEqual(['sampling/createMessage']);
    const missing = await call('test_missing_capability', {}, {});
    expect(missing.status).toBe(400);
    expect(missing.error).toMatchObject({ code: -32021, data: { requiredCapabilities: { sampling: {} } } });
  });
});
