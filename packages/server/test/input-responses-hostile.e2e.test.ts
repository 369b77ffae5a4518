import 'reflect-metadata';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { Asking, deep, seen, TEXT, WRONG_SHAPES } from './fixtures/hostileAnswers';
import { listenInMemory } from './fixtures/memoryStdio';
import { modernRequest } from './fixtures/modernRequest';

/**
 * A 2026-07-28 client's retries, written as raw JSON lines (stdio, in memory) and raw HTTP on
 * 127.0.0.1: `inputResponses` of the wrong shape, with hostile keys, huge or deep values,
 * answers to questions never asked or of other rounds, and a `requestState` that is tampered,
 * of another call, replayed or not a state at all. A wrong answer is -32602 naming the key and
 * the field (never -32603, never a stack); the tool sees the value the SDK's schema parsed, the
 * same as a 2025-era tool (client-answers-hostile.e2e.test.ts); nothing the client sent beyond
 * its answers rides in the next state; the server keeps serving.
 */
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};

type Answer = {
  id?: unknown;
  result?: { resultType?: string; inputRequests?: Record<string, { method: string }>; requestState?: string; content?: { text: string }[]; isError?: boolean };
  error?: { code: number; message: string; data?: unknown };
};
type Session = Awaited<ReturnType<typeof listenInMemory>>;

let app: App;
let session: Session;
beforeAll(async () => {
  app = await createApp({ name: 'asking', version: '1.0.0', tools: [Asking] });
  session = await listenInMemory(app);
});
afterAll(() => session.close());

let calls = 0;
/** A 2026-07-28 tools/call of `tool`; `retry` is the raw JSON text of more params (`"inputResponses":…,"requestState":…`). */
async function call(tool: string, retry?: string): Promise<Answer> {
  const id = `call-${++calls}`;
  session.sendLine(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${tool}","arguments":{}${retry ? `,${retry}` : ''},"_meta":${JSON.stringify(ENVELOPE)}}}`);
  return (await session.answer(id)) as Answer;
}

/** The first round of `tool`: the key of its question and the state to echo. */
async function firstRound(tool: string): Promise<{ key: string; state: string }> {
  const first = await call(tool);
  expect(first.result?.resultType).toBe('input_required');
  return { key: Object.keys(first.result!.inputRequests!)[0], state: first.result!.requestState! };
}

/** Answers `tool`'s first question with the raw JSON text `response`. */
async function answered(tool: string, response: string): Promise<Answer> {
  const { key, state } = await firstRound(tool);
  return call(tool, `"inputResponses":{${JSON.stringify(key)}:${response}},"requestState":${JSON.stringify(state)}`);
}

async function stillServes(): Promise<void> {
  const id = `list-${++calls}`;
  session.send({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: ENVELOPE } });
  expect(((await session.answer(id)) as Answer).result).toBeDefined();
}

const USED_UP = 'Its requestState is used up: start the call again without requestState.';
const KEY: Record<string, string> = { dto: 'elicit-1', raw: 'elicit-1', url: 'elicit-1', sample: 'sample-1', roots: 'roots-1' };

describe('2026-07-28: hostile inputResponses', () => {
  test.each(WRONG_SHAPES)('%s: %s is -32602 naming the key and the field', async (tool, _what, response, problem) => {
    const method = { dto: 'elicitation/create', raw: 'elicitation/create', url: 'elicitation/create', sample: 'sampling/createMessage', roots: 'roots/list' }[tool];
    const answer = await answered(tool, response);
    expect(answer.error).toEqual({ code: -32602, message: `inputResponses['${KEY[tool]}'] is not a valid ${method} result: ${problem}. ${USED_UP}` });
    await stillServes();
  });

  test.each(['{"error":{"code":1,"message":"No."}}', '{"error":"No."}', '{"code":"x"}'])(
    'an entry that is a JSON-RPC error, well-formed or not (%s), is -32602 naming the key at once',
    async (response) => {
      const answer = await answered('raw', response);
      expect(answer.error).toEqual({ code: -32602, message: `inputResponses['elicit-1'] is not a valid elicitation/create result: action must be 'accept', 'decline' or 'cancel'. ${USED_UP}` });
      await stillServes();
    },
  );

  it('a __proto__ key in the content is dropped, as in the 2025 era: the tool sees the SDK-parsed value', async () => {
    const answer = await answered('raw', '{"action":"accept","content":{"name":"Ada","extra":"x","__proto__":{"polluted":"yes"}}}');
    expect(answer.result?.content).toEqual([{ type: 'text', text: 'accept' }]);
    const { content } = seen.at(-1) as { content: Record<string, unknown> };
    expect(content).toEqual({ name: 'Ada', extra: 'x' });
    expect(Object.hasOwn(content, '__proto__')).toBe(false);
    expect(Object.getPrototypeOf(content)).toBe(Object.prototype);
    expect(content.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('a sampling reply nesting 1,000 levels is refused before it reaches the tool or the next round state', async () => {
    // Before: the tool got the value and failed returning it (an internal error), or sealing the next round threw a RangeError (-32603).
    const { key, state } = await firstRound('both');
    const reply = `{"role":"assistant","content":${TEXT},"model":"m","_meta":{"x":${deep(5_000)}}}`;
    const answer = await call('both', `"inputResponses":{"${key}":${reply}},"requestState":${JSON.stringify(state)}`);
    expect(answer.error?.code).toBe(-32602);
    expect(answer.error?.message).toMatch(
      /^inputResponses\['sample-1'\] is not a valid sampling\/createMessage result: _meta\.x\[0\]\[0\]\[0\]…\[0\]\[0\]\[0\]\[0\]\[0\] nests deeper than 1000 levels/,
    );
    await stillServes();
  });

  it('answers to questions never asked, a __proto__ key and entries the SDK drops are not answers: the question is asked again, and none of them rides in the state', async () => {
    const { state } = await firstRound('raw');
    const junk = `"never-asked":{"action":"accept","content":{"name":"${'x'.repeat(100_000)}"}},"__proto__":{"action":"accept","content":{"name":"Eve"}},"elicit-2":{"method":"elicitation/create"},"elicit-3":"yes"`;
    const again = await call('raw', `"inputResponses":{${junk}},"requestState":${JSON.stringify(state)}`);
    expect(again.result?.resultType).toBe('input_required');
    expect(Object.keys(again.result!.inputRequests!)).toEqual(['elicit-1']);
    expect(again.result!.requestState!.length).toBeLessThan(state.length + 50);
    const notAnObject = await call('raw', `"inputResponses":[{"action":"accept"}],"requestState":${JSON.stringify(again.result!.requestState)}`);
    expect(notAnObject.result?.resultType).toBe('input_required');
    await stillServes();
  });

  it("an answer to an earlier round's key does not replace the answer that round got", async () => {
    const first = await firstRound('both');
    const second = await call('both', `"inputResponses":{"${first.key}":{"role":"assistant","content":${TEXT},"model":"m"}},"requestState":${JSON.stringify(first.state)}`);
    expect(Object.keys(second.result!.inputRequests!)).toEqual(['elicit-2']);
    const late = `"${first.key}":{"role":"assistant","content":{"type":"text","text":"changed"},"model":"m"},"elicit-2":{"action":"decline"}`;
    const done = await call('both', `"inputResponses":{${late}},"requestState":${JSON.stringify(second.result!.requestState)}`);
    expect(done.result?.content).toEqual([{ type: 'text', text: 'hi decline' }]);
  });

  it('a requestState that is tampered, of another call, replayed, a number or 5 MB is -32602, and the server serves on', async () => {
    const response = '{"action":"accept","content":{"name":"Ada"}}';
    const { key, state } = await firstRound('raw');
    const other = await firstRound('dto');
    // One character changed inside the sealed bytes: the last character of base64url may carry bits
    // beyond the bytes, which must be 0, so changing it can make the text malformed rather than modified.
    const at = state.length - 10;
    const tampered = `${state.slice(0, at)}${state[at] === 'A' ? 'B' : 'A'}${state.slice(at + 1)}`;
    const integrity = /^requestState failed its integrity check: .* Start the call again without requestState\.$/;
    for (const bad of [tampered, other.state, `v2.${'A'.repeat(5_000_000)}`]) {
      const answer = await call('raw', `"inputResponses":{"${key}":${response}},"requestState":${JSON.stringify(bad)}`);
      expect(answer.error?.code).toBe(-32602);
      expect(answer.error?.message).toMatch(integrity);
    }
    const number = await call('raw', `"inputResponses":{"${key}":${response}},"requestState":5`);
    expect(number.error?.code).toBe(-32602);
    expect(await call('raw', `"inputResponses":{"${key}":${response}},"requestState":${JSON.stringify(state)}`)).toMatchObject({ result: { content: [{ text: 'accept' }] } });
    const replayed = await call('raw', `"inputResponses":{"${key}":${response}},"requestState":${JSON.stringify(state)}`);
    expect(replayed.error).toEqual({ code: -32602, message: expect.stringMatching(/^requestState was already used/) as unknown as string });
    await stillServes();
  });
});

describe('2026-07-28 over HTTP on 127.0.0.1', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  const capabilities = ENVELOPE['io.modelcontextprotocol/clientCapabilities'];

  it('a wrong answer is -32602 naming the key and the field; a deep one too', async () => {
    const first = await modernRequest(listener.url, 'tools/call', { name: 'roots', arguments: {} }, { capabilities });
    const retry = (response: unknown) =>
      modernRequest(listener.url, 'tools/call', { name: 'roots', arguments: {}, inputResponses: { 'roots-1': response }, requestState: first.requestState }, { capabilities });
    await expect(retry({ roots: [{ uri: 'https://example.com/' }] })).rejects.toMatchObject({
      code: -32602,
      message: `-32602 inputResponses['roots-1'] is not a valid roots/list result: roots[0].uri must be a string that starts with 'file://'. ${USED_UP}`,
    });
    const again = await modernRequest(listener.url, 'tools/call', { name: 'sample', arguments: {} }, { capabilities });
    let nested: unknown = {};
    for (let i = 0; i < 1_500; i++) nested = { x: nested };
    const reply = { role: 'assistant', content: { type: 'text', text: 'hi' }, model: 'm', _meta: nested };
    await expect(
      modernRequest(listener.url, 'tools/call', { name: 'sample', arguments: {}, inputResponses: { 'sample-1': reply }, requestState: again.requestState }, { capabilities }),
    ).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('nests deeper than 1000 levels') as unknown as string });
  });

  it('the SDK v2 client refuses to send its own bad elicitation answer; its roots go unchecked and are refused here', async () => {
    const client = await createTestClient(app, {
      transport: 'http',
      protocol: '2026-07-28',
      elicitation: () => ({ action: 'maybe' }) as never,
      roots: [{ uri: 'https://example.com/' }],
    });
    try {
      await expect(client.callTool({ name: 'raw', arguments: {} })).rejects.toThrow(/Invalid elicitation result/);
      await expect(client.callTool({ name: 'roots', arguments: {} })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining("inputResponses['roots-1'] is not a valid roots/list result: roots[0].uri must be a string that starts with 'file://'.") as unknown as string,
      });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });
});
