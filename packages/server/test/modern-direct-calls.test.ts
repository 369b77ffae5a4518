import 'reflect-metadata';
import { createApp } from '@toolwright/server';
import { LANE_ANSWERS, LaneTools, SDK_CALLS, laneState } from './fixtures/laneTools';
import { listenInMemory } from './fixtures/memoryStdio';
import { ModernDirectCalls } from '../src/sdk/ModernDirectCalls';

/**
 * 2026-07-28 stdio: plain tool calls are served before the SDK's stdio entry once the SDK has
 * accepted their envelope (see serveModernCalls). Each answer is compared with the SDK's own:
 * the first request with a fresh envelope always takes the SDK's way, the same request again
 * takes the lane, and `ModernDirectCalls.handled` (called by the SDK's handler) counts which way.
 */
let envelopes = 0;
/** A fresh envelope: the SDK has not judged it yet on any connection. */
function envelope(extra: Record<string, unknown> = {}) {
  return { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: `client ${++envelopes}`, version: '1' }, ...extra };
}

async function serve() {
  const app = await createApp({ name: 'modern-direct', version: '1.0.0', tools: [LaneTools] });
  const { send, answer, out, close } = await listenInMemory(app, { token: 't', clientId: 'c', scopes: [] });
  let next = 0;
  /** Sends a tools/call and returns its answer without its id, as JSON text (key order included). */
  const call = async (params: Record<string, unknown>) => {
    const id = ++next;
    send({ jsonrpc: '2.0', id, method: 'tools/call', params });
    const { id: _, ...rest } = await answer(id);
    return JSON.stringify(rest);
  };
  return { send, answer, call, out, close };
}

describe('2026-07-28 tool calls served before the SDK (stdio)', () => {
  let stderr: jest.SpyInstance;
  let handled: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    handled = jest.spyOn(ModernDirectCalls.prototype, 'handled');
  });
  afterEach(() => {
    stderr.mockRestore();
    handled.mockRestore();
  });

  /** Requests the SDK's tools/call handler saw since the last look. */
  const viaSdk = () => {
    const n = handled.mock.calls.length;
    handled.mockClear();
    return n;
  };

  it.each(LANE_ANSWERS)('answers %s exactly as the SDK does', async (_, name, args) => {
    const s = await serve();
    const meta = envelope();
    const sdk = await s.call({ name, arguments: args, _meta: meta });
    expect(viaSdk()).toBe(1);
    const lane = await s.call({ name, arguments: args, _meta: meta });
    expect(lane).toBe(sdk);
    // The lane ran it; only a result or failure it cannot encode went on to the SDK (which did not run the tool again).
    expect(viaSdk()).toBe(name === 'rich' ? 1 : 0);
    await s.close();
  });

  it('runs a tool once, also when it hands the answer to the SDK', async () => {
    const s = await serve();
    const meta = envelope();
    await s.call({ name: 'echo', arguments: { text: 'a' }, _meta: meta });
    const before = laneState.runs;
    await s.call({ name: 'echo', arguments: { text: 'b' }, _meta: meta });
    expect(laneState.runs).toBe(before + 1);
    await s.close();
  });

  it.each([...SDK_CALLS, ['arguments that are not an object', { name: 'echo', arguments: [1] }]])('leaves %s to the SDK', async (_, params) => {
    const s = await serve();
    const meta = envelope();
    await s.call({ name: 'echo', arguments: { text: 'learn' }, _meta: meta });
    viaSdk();
    const { _meta: extra, ...rest } = params as { _meta?: Record<string, unknown> };
    const first = await s.call({ ...rest, _meta: { ...meta, ...extra } });
    const second = await s.call({ ...rest, _meta: { ...meta, ...extra } });
    expect(second).toBe(first);
    // Both reached the SDK's handler, except arguments the SDK refuses before it.
    expect(viaSdk()).toBe(Array.isArray(params.arguments) ? 0 : 2);
    await s.close();
  });

  it('never takes an envelope the SDK refused, not even after its request id comes back with a good one', async () => {
    const s = await serve();
    const good = envelope();
    const bad = { ...envelope(), 'io.modelcontextprotocol/clientCapabilities': 'none' };
    await s.call({ name: 'echo', arguments: { text: 'open' }, _meta: good });
    s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: bad } });
    const refused = await s.answer(7);
    expect(refused).toMatchObject({ error: { code: -32602, message: expect.stringContaining('envelope') } });
    s.out.length = 0;
    // The same id again, now with a good envelope, on a call the SDK serves: the bad envelope must stay unknown.
    s.send({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'withContext', arguments: {}, _meta: good } });
    await s.answer(7);
    s.out.length = 0;
    s.send({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' }, _meta: bad } });
    expect(await s.answer(8)).toEqual({ ...refused, id: 8 });
    await s.close();
  });

  it('sends nothing for a call the client cancelled, and keeps serving', async () => {
    const s = await serve();
    const meta = envelope();
    await s.call({ name: 'echo', arguments: { text: 'learn' }, _meta: meta });
    viaSdk();
    s.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: { name: 'slow', arguments: {}, _meta: meta } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'slow', reason: 'user' } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    laneState.release!();
    expect(await s.call({ name: 'echo', arguments: { text: 'next' }, _meta: meta })).toContain('echo: next');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(s.out.find((m) => m.id === 'slow')).toBeUndefined();
    expect(viaSdk()).toBe(0);
    await s.close();
  });
});
