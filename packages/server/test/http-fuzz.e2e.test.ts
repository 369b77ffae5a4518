import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { ERAS } from './fixtures/eras';
import { frame, LEAKS, SECRET } from './fixtures/hostileFrames';
import { ACCEPT_BOTH, messagesOf, openRawSession } from './fixtures/httpHelpers';

/** Runs per era and mode; each sends up to 3 frames (one POST), some 1,500 requests in all, in well under a minute. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
const SERVER = join(__dirname, 'fixtures', 'http-server.js');
const MODES = [
  { name: 'stateful SSE', options: {} },
  { name: 'stateful JSON', options: { jsonResponse: true } },
  { name: 'stateless', options: { stateless: true } },
] as const;

/** Mostly `right` (so requests reach the handlers), else one of `wrong`. */
const mostly = <T>(right: T, ...wrong: T[]) => fc.oneof({ weight: 4 * wrong.length, arbitrary: fc.constant(right) }, fc.constantFrom(...wrong));
/** Headers a client may get right or wrong. */
const headers = fc.record({
  accept: mostly<string | undefined>(ACCEPT_BOTH, 'application/json', 'text/event-stream', 'application/json;q=0, text/event-stream', '*/*', undefined),
  contentType: mostly<string | undefined>('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/jsonx', undefined),
  session: mostly('valid', 'bogus', 'absent'),
  version: mostly('era', '2024-11-05', '1999-01-01', 'absent'),
  token: mostly('valid', 'wrong', 'absent'),
});

/** The server in a child process (its resident memory is read from /proc), with a bearer token configured. */
async function startServer(options: object): Promise<{ child: ChildProcessWithoutNullStreams; url: string }> {
  const child = spawn(process.execPath, [SERVER], { env: { ...process.env, TOKEN: SECRET, HTTP_OPTIONS: JSON.stringify(options) } });
  let stderr = '';
  child.stderr.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.on('data', (chunk: string) => {
      stderr += chunk;
      const found = /url=(\S+)/.exec(stderr);
      if (found) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${stderr}`)));
  });
  child.stdout.resume();
  return { child, url };
}

const kib = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

describe.each(ERAS)('HTTP under arbitrary requests ($name): one answer per request, nothing leaked, bounded memory, still serving', (era) => {
  const children: ChildProcessWithoutNullStreams[] = [];
  afterAll(() => children.forEach((c) => c.kill('SIGKILL')));

  it.each(MODES)(
    '$name',
    async (mode) => {
      const { child, url } = await startServer(mode.options);
      children.push(child);
      const auth = { authorization: `Bearer ${SECRET}` };
      const stateless = 'stateless' in mode.options;
      const session = stateless ? undefined : await openRawSession(url, auth);
      let next = 0;
      await fc.assert(
        fc.asyncProperty(fc.array(frame, { minLength: 1, maxLength: 3 }), fc.boolean(), headers, async (makers, batch, h) => {
          const sent = makers.map((make) => make(next++, era));
          const single = !(batch && sent.length > 1);
          const body = single ? sent[0].text : `[${sent.map((f) => f.text).join(',')}]`;
          // A 2026-07-28 request's own headers (Mcp-Method, Mcp-Name), then what the client got right or wrong.
          const request: Record<string, string> = { ...(single ? sent[0].headers : {}) };
          if (h.accept) request.accept = h.accept;
          if (h.contentType) request['content-type'] = h.contentType;
          if (h.session === 'valid' && session) request['mcp-session-id'] = session;
          if (h.session === 'bogus') request['mcp-session-id'] = 'no-such-session';
          if (h.version === 'absent') delete request['mcp-protocol-version'];
          else request['mcp-protocol-version'] = h.version === 'era' ? era.version : h.version;
          if (h.token === 'valid') request.authorization = auth.authorization;
          if (h.token === 'wrong') request.authorization = 'Bearer s3cret-but-not-this-one';
          const response = await fetch(url, { method: 'POST', headers: request, body, signal: AbortSignal.timeout(5000) });
          const text = await response.clone().text();
          const head = [...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n');
          for (const leak of LEAKS) {
            expect(text).not.toMatch(leak);
            expect(head).not.toMatch(leak);
          }
          expect(response.status).toBeLessThan(500);
          const tracked = (single ? sent.slice(0, 1) : sent).filter((f) => f.id !== undefined);
          if (response.status === 200) {
            const answers = (await messagesOf(response)).filter((m) => 'result' in m || 'error' in m);
            // Every request with a usable id is answered exactly once (a cancelled one would be the exception; none is sent here).
            for (const f of tracked) expect([f.id, answers.filter((a) => a.id === f.id).length]).toEqual([f.id, 1]);
          } else if (response.status === 401) {
            // No token, or not this server's: the OAuth challenge (RFC 6750), never the token back.
            expect(response.headers.get('www-authenticate')).toMatch(/^Bearer /);
          } else if (response.status !== 202) {
            // A refusal answers the whole POST with one JSON-RPC error.
            expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
          }
        }),
        { numRuns: RUNS, timeout: 6_000, endOnFailure: true },
      );
      // Still serving, and the session still works.
      const ping = await fetch(url, {
        method: 'POST',
        headers: {
          accept: ACCEPT_BOTH,
          'content-type': 'application/json',
          ...auth,
          ...era.headers(era.alive),
          ...(session && !era.modern && { 'mcp-session-id': session, 'mcp-protocol-version': era.version }),
        },
        body: JSON.stringify(era.alive),
      });
      expect(ping.status).toBe(200);
      expect(await messagesOf(ping)).toEqual([expect.objectContaining({ jsonrpc: '2.0', id: 'alive', result: expect.any(Object) })]);
      // Bounded memory: the peak resident size of the whole server process.
      expect(child.exitCode).toBeNull();
      expect(kib(child.pid!, 'VmHWM')).toBeLessThan(250 * 1024);
    },
    90_000,
  );
});
