import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { ERAS, type Era } from './fixtures/eras';
import { FuzzTools } from './fixtures/fuzzTools';
import { HttpMembers } from './fixtures/http.tools';
import { initializeBody, post } from './fixtures/httpHelpers';
import { KitchenTools } from './fixtures/kitchen.tools';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * The lane seam's second rule: switching the fast paths off changes nothing a client can
 * see. The same scripted session (every return shape, every failure mode, the list and read
 * methods, progress, cancellation, unknown and malformed requests) runs against an app with
 * fast paths on and one with them off, on stdio and over HTTP (stateful, stateless), in both
 * eras. The full transcripts must be identical: every JSON-RPC message, and over HTTP the
 * status and every response header, with only what differs by design (session ids, dates)
 * replaced by placeholders.
 */

type Message = Record<string, unknown>;

const appWith = (fastPaths: boolean): Promise<App> => createApp({ name: 'transcripts', version: '1.0.0', tools: [KitchenTools, FuzzTools, HttpMembers], fastPaths });

const call = (id: number, name: string, args?: Record<string, unknown>, meta?: Record<string, unknown>): Message => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args && { arguments: args }), ...(meta && { _meta: meta }) },
});

/** The scripted session: requests the fast paths take and requests they leave to the SDK, side by side. */
const SCRIPT: readonly Message[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/list' },
  call(2, 'returns_string'),
  call(3, 'returns_number'),
  call(4, 'returns_boolean'),
  call(5, 'returns_object'),
  call(6, 'returns_array'),
  call(7, 'returns_nothing'),
  call(8, 'returns_image'),
  call(9, 'returns_blocks'),
  call(10, 'returns_result'),
  call(11, 'async_value', { ms: 0 }),
  call(12, 'async_value', { ms: -1 }),
  call(13, 'async_value', { ms: 'soon' }),
  call(14, 'tool_error'),
  call(15, 'crash'),
  call(16, 'rejects'),
  call(17, 'shapes', { when: '2026-01-02T03:04:05Z', at: { x: 1, y: 2 } }),
  call(18, 'shapes', { when: 'not a date', at: { x: 1.5 } }),
  call(19, 'tags', { tags: ['a', 'b'] }),
  call(20, 'tags', { tags: ['c'] }),
  call(21, 'echo', { text: 'hi', times: 2 }),
  call(22, 'echo', { text: 'hi', extra: true }),
  call(23, 'echo', {}),
  call(24, 'shaped'),
  call(25, 'rich'),
  call(26, 'refused'),
  call(27, 'broken'),
  call(28, 'with_context'),
  call(29, 'secret'),
  call(30, 'later', { n: 3 }),
  call(31, 'echo', { text: 'with progress' }, { progressToken: 'p1' }),
  call(32, 'no-such-tool'),
  call(33, 'hasOwnProperty'),
  { jsonrpc: '2.0', id: 34, method: 'tools/call', params: { name: 'echo', arguments: [1] } },
  { jsonrpc: '2.0', id: 35, method: 'tools/call' },
  { jsonrpc: '2.0', id: 36, method: 'resources/list' },
  { jsonrpc: '2.0', id: 37, method: 'resources/read', params: { uri: 'fixture://readme' } },
  { jsonrpc: '2.0', id: 38, method: 'resources/read', params: { uri: 'fixture://missing' } },
  { jsonrpc: '2.0', id: 39, method: 'prompts/list' },
  { jsonrpc: '2.0', id: 40, method: 'prompts/get', params: { name: 'note', arguments: { topic: 'eels' } } },
  { jsonrpc: '2.0', id: 41, method: 'prompts/get', params: { name: 'note' } },
  { jsonrpc: '2.0', id: 42, method: 'completion/complete', params: { ref: { type: 'ref/prompt', name: 'note' }, argument: { name: 'topic', value: 'ee' } } },
  { jsonrpc: '2.0', id: 43, method: 'no/such/method' },
  { jsonrpc: '2.0', id: 44, method: 'valueOf', params: {} },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 30 } },
  { jsonrpc: '2.0', id: '45', method: 'tools/call', params: { name: 'echo', arguments: { text: 'string id' } } },
  { jsonrpc: '2.0', id: 46, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } }, extra: 'envelope key' },
  { jsonrpc: '1.0', id: 47, method: 'tools/call', params: { name: 'echo', arguments: { text: 'x' } } },
];

/** Each line of a transcript with what differs by design between two runs replaced. */
function normalized(lines: readonly string[], sessionIds: readonly string[]): string[] {
  return lines.map((line) => sessionIds.reduce((text, id) => text.split(id).join('<session>'), line));
}

async function stdioTranscript(fastPaths: boolean, era: Era): Promise<string[]> {
  const app = await appWith(fastPaths);
  const stdio = await listenInMemory(app);
  try {
    for (const message of era.stdioOpening) stdio.send(message);
    if (era.stdioOpening.length > 0) await stdio.answer('open');
    const requests = SCRIPT.map((message) => era.request(message));
    const last = requests.at(-1)!.id;
    for (const message of requests) stdio.send(message);
    await stdio.answer(last);
    stdio.send(era.alive);
    await stdio.answer('alive');
    // Concurrent calls may answer in another order: compare the messages, sorted.
    return stdio.out.map((message) => JSON.stringify(message)).sort();
  } finally {
    await stdio.close();
  }
}

/** An HTTP answer in full: status, every header but the date, and the body. */
async function exchange(url: string, message: Message, headers: Record<string, string>): Promise<string> {
  const response = await post(url, message, headers);
  const shown = [...response.headers].filter(([name]) => name !== 'date' && name !== 'keep-alive').map(([name, value]) => `${name}: ${value}`);
  const body = (await response.text()).replace(/^id: .*$/gm, 'id: <event>');
  return `${JSON.stringify(message)}\n  -> ${response.status}\n  ${shown.join('\n  ')}\n\n  ${body}`;
}

async function httpTranscript(fastPaths: boolean, era: Era, stateless: boolean): Promise<string[]> {
  const app = await appWith(fastPaths);
  const listener: HttpListener = await app.listen({ transport: 'http', port: 0, stateless, requestLogLevel: 'silent', exitOnSignal: false });
  const sessionIds: string[] = [];
  try {
    const transcript: string[] = [];
    const headers: Record<string, string> = {};
    if (!era.modern) {
      headers['mcp-protocol-version'] = era.version;
      if (!stateless) {
        const opened = await post(listener.url, initializeBody('open', era.version));
        const id = opened.headers.get('mcp-session-id');
        if (!id) throw new Error(`initialize answered ${opened.status} without a session: ${await opened.text()}`);
        sessionIds.push(id);
        headers['mcp-session-id'] = id;
        transcript.push(`initialize -> ${opened.status} ${await opened.text()}`);
        transcript.push(await exchange(listener.url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
      }
    }
    for (const message of [...SCRIPT, era.alive]) {
      const request = era.request(message);
      transcript.push(await exchange(listener.url, request, { ...headers, ...era.headers(request) }));
    }
    return normalized(transcript, sessionIds);
  } finally {
    await listener.close();
  }
}

/** The first differences between two transcripts. */
function differences(on: readonly string[], off: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < Math.max(on.length, off.length) && found.length < 5; i++) {
    if (on[i] !== off[i]) found.push(`#${i}\n  fast paths: ${on[i]}\n  SDK only:   ${off[i]}`);
  }
  return found;
}

describe('fast paths on and off: the same transcripts', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  describe.each(ERAS.map((era) => [era.name, era] as const))('%s', (_, era) => {
    it('stdio: every message written', async () => {
      const on = await stdioTranscript(true, era);
      const off = await stdioTranscript(false, era);
      expect(differences(on, off)).toEqual([]);
      // The script reaches the tools, not only the error paths.
      expect(on.filter((line) => line.includes('"result":{"content"')).length).toBeGreaterThan(20);
    });

    it.each([
      ['stateful', false],
      ['stateless', true],
    ])('HTTP %s: every status, header and body', async (_mode, stateless) => {
      const on = await httpTranscript(true, era, stateless);
      const off = await httpTranscript(false, era, stateless);
      expect(differences(on, off)).toEqual([]);
      expect(on.filter((line) => line.includes('"result":{"content"')).length).toBeGreaterThan(20);
    });
  });
});
