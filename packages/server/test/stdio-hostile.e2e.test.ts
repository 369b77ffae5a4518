import { readFileSync } from 'node:fs';
import { BAD_ENVELOPES, BAD_PARAMS, ERAS } from './fixtures/eras';
import { RawSession } from './fixtures/rawStdio';

const invalid = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } });

/** Frames the SDK's schemas reject, with the id their answer must carry. */
const REJECTED: [string, string, unknown][] = [
  ['an object id', '{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}', null],
  ['an array id', '{"jsonrpc":"2.0","id":[1],"method":"ping"}', null],
  ['a null id', '{"jsonrpc":"2.0","id":null,"method":"ping"}', null],
  ['a boolean id', '{"jsonrpc":"2.0","id":true,"method":"ping"}', null],
  ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
  ['an id above 2^53', '{"jsonrpc":"2.0","id":1e20,"method":"ping"}', null],
  ['an extra top-level member', '{"jsonrpc":"2.0","id":"a","method":"ping","extra":1}', 'a'],
  ['params that are not an object', '{"jsonrpc":"2.0","id":"b","method":"ping","params":[1]}', 'b'],
  ['params null', '{"jsonrpc":"2.0","id":"c","method":"resources/read","params":null}', 'c'],
  ['a _meta that is not an object', '{"jsonrpc":"2.0","id":"d","method":"ping","params":{"_meta":5}}', 'd'],
  ['a progressToken above 2^53', '{"jsonrpc":"2.0","id":"e","method":"ping","params":{"_meta":{"progressToken":1e20}}}', 'e'],
  ['a JSON value that is no message', '[1,2,3]', null],
  ['a string', '"hello"', null],
  ['a response with a non-object result', '{"jsonrpc":"2.0","id":5,"result":7}', null],
];

describe.each(ERAS)('stdio, hostile input ($name)', (era) => {
  let session: RawSession;
  afterEach(() => session?.child.kill('SIGKILL'));

  it('answers every request the SDK would drop exactly once (-32600, its id when usable, else null), and ends at once', async () => {
    // A drain far longer than the test: were anything left pending, the process would not exit in time.
    session = await RawSession.start({ era, env: { DRAIN_MS: '600000' } });
    for (const [, frame] of REJECTED) session.send(frame);
    session.send(era.request({ jsonrpc: '2.0', id: 'last', method: 'tools/list' }));
    await session.response('last');
    const errors = session.messages().filter((m) => 'error' in m);
    expect(errors).toEqual(REJECTED.map(([, , id]) => invalid(id)));
    // Nothing is left pending, so closing stdin ends the process without waiting out the drain.
    session.child.stdin.end();
    expect(await session.exited()).toBe(0);
  });

  it('stops reading while the client does not read its answers, and answers every request once it does, though the client already closed its input', async () => {
    session = await RawSession.start({ era });
    const opened = session.lines.length;
    session.child.stdout.pause();
    // 6,000 requests of over 1 kB each (their ids make them long): 6 MB, far more than the pipes and stream buffers hold.
    const ids = Array.from({ length: 6000 }, (_, i) => `${i}:${'x'.repeat(1000)}`);
    for (const id of ids) session.send({ ...era.alive, id });
    const stdin = session.child.stdin;
    // Closing its input does not lose what the server has not read yet.
    stdin.end();
    // Wait until the server stops taking input: what the client could not hand over stays in its stdin's buffer.
    let before = -1;
    while (stdin.writableLength !== before) {
      before = stdin.writableLength;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    // Without back-pressure the server would read everything and keep every answer in memory.
    expect(stdin.writableLength).toBeGreaterThan(3_000_000);

    session.child.stdout.resume();
    await session.linesReached(opened + ids.length);
    const answered = session.lines.slice(opened).map((line) => JSON.parse(line) as { id: string; result?: unknown });
    expect(answered.filter((m) => m.result === undefined)).toEqual([]);
    expect(new Set(answered.map((m) => m.id))).toEqual(new Set(ids));
    expect(await session.exited()).toBe(0);
  });

  it('-32700 for a line that is not JSON, -32600 for JSON that is not JSON-RPC', async () => {
    session = await RawSession.start({ era });
    session.send('{"jsonrpc":"2.0","id":1,');
    expect(await session.response(null)).toMatchObject({ error: { code: -32700 } });
    session.send({ jsonrpc: '2.0', id: 2 });
    expect(await session.waitFor((m) => (m.error as { code?: number } | undefined)?.code === -32600)).toEqual(invalid(null)); // no "method": not a request, so no id to echo
  });

  it('answers params a method cannot take with -32602 naming the field, not a schema dump', async () => {
    session = await RawSession.start({ era });
    BAD_PARAMS.forEach(([method, params], i) => session.send(era.request({ jsonrpc: '2.0', id: `bad${i}`, method, ...(params && { params }) })));
    for (const [i, [method, , field]] of BAD_PARAMS.entries()) {
      const answer = await session.response(`bad${i}`);
      // A method the era removed is unknown whatever its params, as over HTTP.
      // A second initialize is refused by the transport whatever its params (see the fresh session below).
      const expected = era.removed.includes(method)
        ? { code: -32601, message: expect.any(String) }
        : method === 'initialize'
          ? { code: -32600, message: expect.stringContaining('already initialized') }
          : { code: -32602, message: expect.stringContaining(`Invalid params for ${method}: ${field}`) };
      expect(answer).toEqual({ jsonrpc: '2.0', id: `bad${i}`, error: expected });
      expect(JSON.stringify(answer)).not.toMatch(/invalid_type|"path"|expected/);
    }
  });

  (era.modern ? it.skip : it)('answers a first initialize with bad params -32602 naming the field, and serves the next one', async () => {
    session = await RawSession.start({ era: { ...era, stdioOpening: [] } });
    session.send({ jsonrpc: '2.0', id: 'first', method: 'initialize', params: { protocolVersion: '2025-11-25' } });
    expect(await session.response('first')).toEqual({ jsonrpc: '2.0', id: 'first', error: { code: -32602, message: expect.stringContaining('Invalid params for initialize: params.capabilities') } });
    session.send({ jsonrpc: '2.0', id: 'second', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '0' } } });
    expect(await session.response('second')).toMatchObject({ id: 'second', result: { protocolVersion: '2025-11-25' } });
  });

  (era.modern ? it : it.skip)("answers a bad envelope with its JSON-RPC error and the request's id", async () => {
    session = await RawSession.start({ era });
    session.send(era.alive);
    await session.response('alive');
    BAD_ENVELOPES.forEach(([, meta], i) => session.send({ jsonrpc: '2.0', id: `env${i}`, method: 'tools/list', params: { _meta: meta } }));
    for (const [i, [, , code]] of BAD_ENVELOPES.entries()) expect(await session.response(`env${i}`)).toMatchObject({ jsonrpc: '2.0', id: `env${i}`, error: { code } });
  });

  it('refuses a second initialize with -32600 and its id, and keeps the first session', async () => {
    session = await RawSession.start({ era });
    if (era.modern) {
      // A connection pinned to 2026-07-28 has no initialize: -32601, and it keeps serving.
      session.send(era.request({ jsonrpc: '2.0', id: 'first', method: 'tools/list' }));
      await session.response('first');
      session.send({ jsonrpc: '2.0', id: 'again', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      expect(await session.response('again')).toMatchObject({ jsonrpc: '2.0', id: 'again', error: { code: expect.any(Number) } });
      session.send(era.request({ jsonrpc: '2.0', id: 'ok', method: 'tools/list' }));
      expect(await session.response('ok')).toHaveProperty('result.tools');
      return;
    }
    session.send({ jsonrpc: '2.0', id: 'again', method: 'initialize', params: { protocolVersion: era.version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    expect(await session.response('again')).toEqual({ jsonrpc: '2.0', id: 'again', error: { code: -32600, message: expect.stringContaining('already initialized') } });
    session.send(era.request({ jsonrpc: '2.0', id: 'ok', method: 'tools/list' }));
    expect(await session.response('ok')).toHaveProperty('result.tools');
  });

  it('reads a line too long in bounded memory, answers it once, and serves the next line', async () => {
    session = await RawSession.start({ era });
    const piece = 'x'.repeat(1024 * 1024);
    session.child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`);
    for (let i = 0; i < 17; i++) session.child.stdin.write(piece);
    session.send('"}}');
    session.send(era.request({ jsonrpc: '2.0', id: 'after', method: 'tools/list' }));
    await session.response('after');
    const errors = session.messages().filter((m) => 'error' in m);
    expect(errors).toEqual([{ jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('Message too large') } }]);
    // The peak resident size: the line was dropped as it grew, never held whole nor copied over and over.
    const peakKiB = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${session.child.pid}/status`, 'utf8'))![1]);
    expect(peakKiB).toBeLessThan(200 * 1024);
  });

  it('answers a long line under the limit (12 MiB); its read time per MiB is measured by bench/long-lines.js', async () => {
    session = await RawSession.start({ era });
    session.send(era.request({ jsonrpc: '2.0', id: 'long', method: 'tools/list', params: { _meta: { pad: 'y'.repeat(12 * 1024 * 1024) } } }));
    expect(await session.response('long')).toHaveProperty('result.tools');
  });
});

describe.each(ERAS)('stdio, shutdown keeps its promise ($name)', (era) => {
  let session: RawSession;
  afterEach(() => session?.child.kill('SIGKILL'));

  /**
   * Starts a call that is still running when shutdown begins: one waiting on the client's
   * sampling answer (2025 era), or a slow one (2026-07-28 has no server-to-client requests:
   * sampling is an input_required result, answered at once). With `sleeps`, a slow one in either era.
   */
  const startWaitingCall = async (id: string, ms = 60_000, sleeps = era.modern) => {
    if (sleeps) {
      session.send(era.request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'slow', arguments: { ms }, _meta: { progressToken: id } } }));
      await session.waitFor((m) => m.method === 'notifications/progress' && (m.params as { progressToken?: unknown }).progressToken === id); // it runs
      return undefined;
    }
    session.send(era.request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'ask', arguments: {} } }));
    return session.waitFor((m) => m.method === 'sampling/createMessage');
  };

  /** Sends `method` requests until one is refused (the signal has been handled, the drain begun); returns that answer. */
  const refusedOnceDraining = async (method: string) => {
    for (let i = 0; i < 10_000; i++) {
      session.send(era.request({ jsonrpc: '2.0', id: `late${i}`, method }));
      const answer = await session.response(`late${i}`);
      if ('error' in answer) return answer;
    }
    throw new Error(`${method} was never refused`);
  };

  it('while draining, running calls finish (the client still answers the server), and new requests are refused', async () => {
    session = await RawSession.start({ era });
    if (era.modern) {
      await startWaitingCall('call', 700);
      session.child.kill('SIGTERM');
      expect(await refusedOnceDraining('tools/list')).toMatchObject({ error: { code: -32000, message: expect.stringContaining('shutting down') } });
      expect(await session.response('call')).toMatchObject({ result: { content: [{ type: 'text', text: 'slept 700' }] } });
      expect(await session.exited()).toBe(0);
      expect(session.answers('call')).toHaveLength(1);
      return;
    }
    session.send(era.request({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'ask', arguments: {} } }));
    const sampling = await session.waitFor((m) => m.method === 'sampling/createMessage');
    session.child.kill('SIGTERM');
    expect(await refusedOnceDraining('ping')).toMatchObject({ error: { code: -32000, message: expect.stringContaining('shutting down') } });
    session.send({ jsonrpc: '2.0', id: sampling.id, result: { role: 'assistant', content: { type: 'text', text: 'hello' }, model: 'm' } });
    expect(await session.response('call')).toMatchObject({ result: { content: [{ type: 'text', text: 'the client said: hello' }] } });
    expect(await session.exited()).toBe(0);
    expect(session.answers('call')).toHaveLength(1);
  });

  it('two running calls that share an id (a client reusing it) are both answered before the server exits', async () => {
    session = await RawSession.start({ era });
    for (const ms of [100, 600]) session.send(era.request({ jsonrpc: '2.0', id: 'twice', method: 'tools/call', params: { name: 'slow', arguments: { ms } } }));
    session.child.stdin.end();
    expect(await session.exited()).toBe(0);
    expect(session.answers('twice').map((m) => (m.result as { content: { text: string }[] }).content[0].text)).toEqual(['slept 100', 'slept 600']);
  });

  it('a call the client cancelled is neither waited for nor answered at shutdown', async () => {
    // A drain far longer than the test: were the cancelled call waited for, the process would not exit in time.
    session = await RawSession.start({ era, env: { DRAIN_MS: '600000' } });
    await startWaitingCall('gone');
    session.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'gone' } });
    session.child.stdin.end();
    expect(await session.exited()).toBe(0);
    expect(session.answers('gone')).toEqual([]);
  });

  it('a call that cannot finish within the drain timeout gets an error response, never silence', async () => {
    session = await RawSession.start({ era, env: { DRAIN_MS: '300' } });
    // A call that sleeps: one waiting on the client's answer ends as soon as stdin does (no answer can come then).
    await startWaitingCall('stuck', 60_000, true);
    session.child.stdin.end();
    expect(await session.exited()).toBe(0);
    expect(session.answers('stuck')).toEqual([{ jsonrpc: '2.0', id: 'stuck', error: { code: -32000, message: expect.stringContaining('did not finish within the drain timeout') } }]);
  });
});

describe('stdio, hostile input on stderr', () => {
  let session: RawSession;
  afterEach(() => session?.child.kill('SIGKILL'));

  it('writes a few warn lines of 1,500 bad lines, one entry per line, with no raw control character of theirs', async () => {
    session = await RawSession.start();
    const hostile = '\n[toolwright] error forged\u001b[31m\u2028\u009b';
    for (let i = 0; i < 500; i++) session.send(`not json ${hostile} ${i}`);
    for (let i = 0; i < 500; i++) session.send({ jsonrpc: '2.0', id: i, method: `made/up${hostile}${i}`, params: {} });
    for (let i = 0; i < 500; i++) session.send({ jsonrpc: '2.0', id: `t${i}`, method: 'tools/call', params: { name: `nope${hostile}${i}`, arguments: {} } });
    session.send({ jsonrpc: '2.0', id: 'last', method: 'ping' });
    await session.response('last');
    // Every request was answered...
    expect(session.answers(499)).toHaveLength(1);
    expect(session.answers('t499')).toHaveLength(1);
    // ...and stderr holds a few lines, each one entry of the server's own (5 per kind, then a count), none of the client's escapes raw.
    const lines = session.stderr.split('\n').filter((line) => line !== '' && line !== 'ready');
    expect(lines.length).toBeLessThanOrEqual(20);
    for (const line of lines) expect(line).toMatch(/^\[toolwright\] \w+ \w+: /);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(session.stderr).not.toMatch(/[\u001b\u2028\u009b]/);
    expect(session.stderr).not.toMatch(/^\[toolwright\] error forged/m);
  });
});
