import 'reflect-metadata';
import { Param, RequireScopes, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { listenInMemory } from './fixtures/memoryStdio';

let release: (() => void) | undefined;
let calls = 0;

class DirectTools {
  @Tool({ description: 'Echoes its text.' })
  echo(@Param('text') text: string) {
    calls++;
    return `echo: ${text}`;
  }

  @Tool({ description: 'Answers when the test says so.' })
  async slow() {
    await new Promise<void>((resolve) => (release = resolve));
    return 'late';
  }

  @Tool({ description: 'Throws a plain error.' })
  broken(): string {
    throw new Error('boom');
  }

  @RequireScopes('admin')
  @Tool({ description: 'Admins only.' })
  secret() {
    return 'secret';
  }
}

/** A 2025-era stdio session on in-memory streams. */
async function serve(authInfo?: { token: string; clientId: string; scopes: string[] }) {
  const app = await createApp({ name: 'direct', version: '1.0.0', tools: [DirectTools] });
  const { send, answer, out, close } = await listenInMemory(app, authInfo);
  send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } });
  await answer(0);
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { send, answer, out, close };
}

const call = (id: number | string, name: string, args?: Record<string, unknown>) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, ...(args && { arguments: args }) } });

describe('2025-era tool calls served before the SDK (stdio)', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it('answers as the SDK does: the result first, then jsonrpc and id', async () => {
    const s = await serve();
    s.send(call(1, 'echo', { text: 'hi' }));
    const answer = await s.answer(1);
    expect(JSON.stringify(answer)).toBe(JSON.stringify({ result: { content: [{ type: 'text', text: 'echo: hi' }] }, jsonrpc: '2.0', id: 1 }));
    await s.close();
  });

  it('leaves invalid arguments, unknown tools, refusals and thrown errors with their usual answers', async () => {
    const s = await serve();
    s.send(call(1, 'echo', { nope: 1 }));
    s.send(call(2, 'missing'));
    s.send(call(3, 'secret'));
    s.send(call(4, 'broken'));
    expect(await s.answer(1)).toMatchObject({ result: { isError: true, content: [{ text: expect.stringContaining("Invalid arguments for tool 'echo'") }] } });
    expect(await s.answer(2)).toEqual({ jsonrpc: '2.0', id: 2, error: { code: -32602, message: "Unknown tool 'missing'. Call tools/list to see the available tools." } });
    // A tool the caller may not use is answered as an unknown one (issue 31: hidden members cannot be enumerated).
    expect(await s.answer(3)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32602, message: "Unknown tool 'secret'. Call tools/list to see the available tools." } });
    expect(await s.answer(4)).toMatchObject({ result: { isError: true, content: [{ text: "Tool 'broken' failed with an internal error. The server log has the details." }] } });
    await s.close();
  });

  it('serves a restricted tool to the stdio caller that may use it', async () => {
    const s = await serve({ token: 't', clientId: 'c', scopes: ['admin'] });
    s.send(call(1, 'secret'));
    expect(await s.answer(1)).toEqual({ result: { content: [{ type: 'text', text: 'secret' }] }, jsonrpc: '2.0', id: 1 });
    await s.close();
  });

  it('sends nothing for a call the client cancelled, and keeps serving', async () => {
    const s = await serve();
    release = undefined;
    s.send(call('a', 'slow'));
    // Waits on events, not time: the call has started when the tool holds its release; a ping
    // answered after the cancellation means the server has read it.
    while (!release) await new Promise((resolve) => setImmediate(resolve));
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'a', reason: 'user' } });
    s.send({ jsonrpc: '2.0', id: 'read', method: 'ping' });
    await s.answer('read');
    (release as () => void)();
    const before = calls;
    s.send(call('b', 'echo', { text: 'next' }));
    expect(await s.answer('b')).toMatchObject({ result: { content: [{ text: 'echo: next' }] } });
    expect(calls).toBe(before + 1);
    // The cancelled call has finished (released before 'b' was sent); a last round trip flushes anything it wrote.
    s.send({ jsonrpc: '2.0', id: 'flush', method: 'ping' });
    await s.answer('flush');
    expect(s.out.find((m) => m.id === 'a')).toBeUndefined();
    await s.close();
  });
});

describe('2025-era tool calls without a server (stateless HTTP)', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  const post = async (url: string, body: unknown) => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify(body),
    });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };

  it.each([false, true])('answers a plain call, and makes a server for a batch that needs one (jsonResponse %s)', async (jsonResponse) => {
    const app = await createApp({ name: 'direct', version: '1.0.0', tools: [DirectTools] });
    const listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', stateless: true, jsonResponse });
    const url = `http://127.0.0.1:${listener.port}/mcp`;
    try {
      const one = await post(url, call(1, 'echo', { text: 'hi' }));
      const expected = JSON.stringify({ result: { content: [{ type: 'text', text: 'echo: hi' }] }, jsonrpc: '2.0', id: 1 });
      expect(one.status).toBe(200);
      expect(one.text).toBe(jsonResponse ? expected : `event: message\ndata: ${expected}\n\n`);
      const batch = await post(url, [call(2, 'echo', { text: 'a' }), { jsonrpc: '2.0', id: 3, method: 'tools/list' }, call(4, 'missing')]);
      expect(batch.status).toBe(200);
      for (const id of ['"id":2', '"id":3', '"id":4', 'echo: a', '"tools":[', "Unknown tool 'missing'"]) expect(batch.text).toContain(id);
    } finally {
      await listener.close();
    }
  });
});
