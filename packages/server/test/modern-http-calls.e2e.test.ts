import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { LANE_ANSWERS, LaneTools, SDK_CALLS, laneState } from './fixtures/laneTools';
import type { HttpListener } from '../src/http/HttpListener';
import { ToolwrightServer } from '../src/sdk/ToolwrightServer';
import { post } from './fixtures/httpHelpers';

/**
 * 2026-07-28 over HTTP: plain tool calls of a kind the SDK has answered with a result take a
 * lane past its per-request handler (see ModernHttpCalls). Each answer is compared with the
 * SDK's own: the first request of a kind takes the SDK's way, the same request again the lane,
 * and the server instances the SDK connected count which way each went.
 */
let clients = 0;
/** A fresh envelope: no request of its kind has been answered yet. */
function envelope() {
  return { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: `client ${++clients}`, version: '1' } };
}

const headersFor = (name: unknown) => ({ 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': String(name) });

let listener: HttpListener;
let connects: jest.SpyInstance;
let stderr: jest.SpyInstance;
let next = 0;

beforeAll(async () => {
  stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  connects = jest.spyOn(ToolwrightServer.prototype, 'connect');
  const app = await createApp({ name: 'modern-http-lane', version: '1.0.0', tools: [LaneTools] });
  listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, drainTimeoutMs: 100 });
});
afterAll(async () => {
  connects.mockRestore();
  stderr.mockRestore();
  await listener.close();
});

/** POSTs a tools/call; the answer as the client reads it (status, content type, body text without the id). */
async function call(params: Record<string, unknown>, headers: Record<string, string> = headersFor(params.name)) {
  const id = ++next;
  const response = await post(listener.url, { jsonrpc: '2.0', id, method: 'tools/call', params }, headers);
  const body = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), body: body.replace(`"id":${id}`, '"id":0') };
}

/** Server instances the SDK connected since the last look: requests that went the SDK's way. */
function viaSdk(): number {
  const n = connects.mock.calls.length;
  connects.mockClear();
  return n;
}

describe('2026-07-28 tool calls served past the SDK (HTTP)', () => {
  beforeEach(() => viaSdk());

  it.each(LANE_ANSWERS)('answers %s exactly as the SDK does', async (_, name, args) => {
    const meta = envelope();
    const sdk = await call({ name, arguments: args, _meta: meta });
    expect(sdk).toMatchObject({ status: 200, type: 'application/json' });
    expect(viaSdk()).toBe(1);
    const lane = await call({ name, arguments: args, _meta: meta });
    expect(lane).toEqual(sdk);
    // The lane ran it; only a result it cannot encode went on to the SDK.
    expect(viaSdk()).toBe(name === 'rich' ? 1 : 0);
  });

  it('runs a tool once, also when it hands the answer to the SDK', async () => {
    const meta = envelope();
    await call({ name: 'rich', arguments: {}, _meta: meta });
    const before = laneState.runs;
    await call({ name: 'rich', arguments: {}, _meta: meta });
    expect(laneState.runs).toBe(before + 1);
  });

  it('leaves a request whose headers differ from every answered kind to the SDK, which refuses a mismatch (-32020)', async () => {
    const meta = envelope();
    await call({ name: 'echo', arguments: { text: 'learn' }, _meta: meta });
    const otherName = await call({ name: 'echo', arguments: { text: 'x' }, _meta: meta }, headersFor('shaped'));
    const otherBody = await call({ name: 'shaped', arguments: {}, _meta: meta }, headersFor('echo'));
    const otherVersion = await call({ name: 'echo', arguments: { text: 'x' }, _meta: meta }, { ...headersFor('echo'), 'mcp-protocol-version': '2025-11-25' });
    for (const refused of [otherName, otherBody, otherVersion]) expect(JSON.parse(refused.body)).toMatchObject({ error: { code: -32020 } });
    expect(viaSdk()).toBe(1);
  });

  it.each(SDK_CALLS)('leaves %s to the SDK', async (_, params) => {
    const meta = envelope();
    const { _meta: extra, ...rest } = params as { _meta?: Record<string, unknown> };
    const first = await call({ ...rest, _meta: { ...meta, ...extra } });
    const second = await call({ ...rest, _meta: { ...meta, ...extra } });
    expect(second).toEqual(first);
    expect(viaSdk()).toBe(2);
  });

  it('answers a call still running at shutdown once, with the shutdown error, and nothing after', async () => {
    const meta = envelope();
    const learning = call({ name: 'slow', arguments: {}, _meta: meta });
    await new Promise((resolve) => setTimeout(resolve, 50));
    laneState.release!();
    await learning;
    const running = call({ name: 'slow', arguments: {}, _meta: meta });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(viaSdk()).toBe(1);
    const closing = listener.close();
    const answer = await running;
    expect(JSON.parse(answer.body)).toMatchObject({ error: { code: -32000 } });
    laneState.release!();
    await closing;
  });
});
