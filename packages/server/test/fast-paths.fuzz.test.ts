import { PassThrough, Writable } from 'node:stream';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { fuzzLines } from './fixtures/fuzzMessages';
import { FuzzTools } from './fixtures/fuzzTools';
import { HttpMembers } from './fixtures/http.tools';
import { initializeBody, messagesOf, openRawSession, post } from './fixtures/httpHelpers';

/**
 * The rule of the lane seam: a fast path stays only while its answers are the SDK's. The
 * same generated messages go to an app with its fast paths on and to one with them off
 * (every message the SDK's way); the transcripts must be identical, byte for byte on stdio,
 * and in status, headers and messages over HTTP. FUZZ_SEED repeats a run (the seed is
 * printed when a run fails); FUZZ_MESSAGES sets how many messages stdio gets.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const STDIO_MESSAGES = Number(process.env.FUZZ_MESSAGES ?? 10_000);
const HTTP_MESSAGES = Math.ceil(STDIO_MESSAGES / 5);
const BATCH = 200;

const appWith = (fastPaths: boolean): Promise<App> => createApp({ name: 'fuzz', version: '1.0.0', tools: [FuzzTools, HttpMembers], fastPaths });

/** Waits until nothing more is written for a few turns of the event loop. */
async function settled(count: () => number): Promise<void> {
  for (let quiet = 0, last = -1; quiet < 3;) {
    await new Promise((resolve) => setTimeout(resolve, 2));
    quiet = count() === last ? quiet + 1 : 0;
    last = count();
  }
}

/** Every line a 2025-11-25 stdio session writes for `lines`, sent in batches; each batch ends with a ping the test waits for. */
async function stdioTranscript(fastPaths: boolean, lines: readonly string[]): Promise<string[]> {
  const app = await appWith(fastPaths);
  const stdin = new PassThrough();
  const written: string[] = [];
  let buffered = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      buffered += String(chunk);
      const parts = buffered.split('\n');
      buffered = parts.pop()!;
      written.push(...parts);
      done();
    },
  });
  const listener = await app.listen({ transport: 'stdio', stdin, stdout, exitOnClose: false });
  const answered = async (id: string) => {
    while (!written.some((line) => line.includes(`"id":"${id}"`))) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  stdin.write(`${JSON.stringify(initializeBody('init'))}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n`);
  await answered('init');
  for (let start = 0; start < lines.length; start += BATCH) {
    const sync = `sync${start}`;
    stdin.write(`${lines.slice(start, start + BATCH).join('\n')}\n{"jsonrpc":"2.0","id":"${sync}","method":"ping"}\n`);
    await answered(sync);
    await settled(() => written.length);
  }
  stdin.write('{"jsonrpc":"2.0","id":"alive","method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}\n');
  await answered('alive');
  await listener.close();
  return written;
}

/** Response headers that differ by design between two runs. */
const VARYING_HEADERS = new Set(['date', 'keep-alive', 'mcp-session-id']);

/** What an HTTP exchange answers: status, headers and messages, with what differs by design (dates, session ids, SSE event ids) left out. */
async function httpAnswer(url: string, line: string, headers: Record<string, string>): Promise<string> {
  const response = await post(url, line, headers);
  const type = response.headers.get('content-type') ?? '';
  const shown = [...response.headers].filter(([name]) => !VARYING_HEADERS.has(name)).map(([name, value]) => `${name}: ${value}`);
  const body = type.startsWith('text/event-stream') || type.startsWith('application/json') ? JSON.stringify(await messagesOf(response).catch(() => 'unparsable')) : await response.text();
  return `${response.status} ${shown.join('; ')} ${body}`;
}

async function httpTranscript(fastPaths: boolean, lines: readonly string[], stateless: boolean): Promise<string[]> {
  const app = await appWith(fastPaths);
  const listener: HttpListener = await app.listen({ transport: 'http', port: 0, stateless, requestLogLevel: 'silent', exitOnSignal: false });
  try {
    const headers: Record<string, string> = stateless ? { 'mcp-protocol-version': '2025-11-25' } : { 'mcp-session-id': await openRawSession(listener.url), 'mcp-protocol-version': '2025-11-25' };
    const answers: string[] = [];
    for (const line of lines) answers.push(await httpAnswer(listener.url, line, headers));
    answers.push(await httpAnswer(listener.url, '{"jsonrpc":"2.0","id":"alive","method":"tools/call","params":{"name":"echo","arguments":{"text":"still here"}}}', headers));
    return answers;
  } finally {
    await listener.close();
  }
}

/** The first differences between two transcripts, each with the lines that led to it. */
function differences(on: readonly string[], off: readonly string[], lines: readonly string[]): string[] {
  const found: string[] = [];
  for (let i = 0; i < Math.max(on.length, off.length) && found.length < 5; i++) {
    if (on[i] !== off[i]) found.push(`#${i}\n  input:      ${lines[i] ?? '(a sync or closing message)'}\n  fast paths: ${on[i]}\n  SDK only:   ${off[i]}`);
  }
  return found;
}

describe(`fast paths answer as the SDK does (seed ${SEED}, FUZZ_SEED=${SEED} repeats it)`, () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it(`stdio, 2025-11-25: ${STDIO_MESSAGES} generated messages, the same lines written`, async () => {
    const lines = fuzzLines(STDIO_MESSAGES, SEED);
    const on = await stdioTranscript(true, lines);
    const off = await stdioTranscript(false, lines);
    // Answers of concurrent calls may leave in another order: compare the lines, sorted.
    const sortedOn = [...on].sort();
    const sortedOff = [...off].sort();
    expect(differences(sortedOn, sortedOff, [])).toEqual([]);
    // The fuzz reaches the tools, not only the error paths.
    expect(on.filter((line) => line.includes('"result":{"content"')).length).toBeGreaterThan(STDIO_MESSAGES / 10);
    expect(on.at(-1)).toContain('still here');
  }, 240_000);

  it.each([
    ['stateless', true],
    ['stateful', false],
  ])(
    `HTTP %s, 2025-11-25: ${HTTP_MESSAGES} generated messages, the same answers`,
    async (_, stateless) => {
      const lines = fuzzLines(HTTP_MESSAGES, SEED + 1);
      const on = await httpTranscript(true, lines, stateless);
      const off = await httpTranscript(false, lines, stateless);
      expect(differences(on, off, lines)).toEqual([]);
      expect(on.filter((answer) => answer.includes('"result":{"content"')).length).toBeGreaterThan(HTTP_MESSAGES / 10);
      expect(on.at(-1)).toContain('still here');
    },
    240_000,
  );
});
