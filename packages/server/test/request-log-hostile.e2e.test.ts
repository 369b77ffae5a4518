/**
 * The HTTP request log against hostile requests, on a real listener on 127.0.0.1: whatever a
 * path, a JSON-RPC method or id holds, each line is one valid JSON object with bounded fields
 * and no raw control character; a flood of bad requests costs a few warn lines and a count.
 */
import { connect } from 'node:net';
import { createApp, type App } from '@toolwright/server';
import { HttpTools } from './fixtures/http.tools';

const HOSTILE = '\n{"level":"error","msg":"forged"}\u001b[31m\u2028\u009b\u202e';
// What must never be raw in a line: C0 and C1 controls, DEL, line separators, bidirectional overrides.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' };

/** Sends raw bytes as one HTTP request and resolves when the server closes the connection. */
function rawRequest(port: number, bytes: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(bytes));
    let answer = '';
    socket.setEncoding('latin1').on('data', (chunk: string) => (answer += chunk));
    socket.once('close', () => resolve(answer));
    socket.once('error', reject);
  });
}

describe('request log, hostile requests', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'request-log-hostile', version: '1.0.0', tools: [HttpTools] });
  });

  it('writes one valid JSON object per line, fields cut and control characters escaped, whatever the path, method and id hold', async () => {
    const lines: string[] = [];
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true, exitOnSignal: false, logWrite: (line) => lines.push(line) });
    const port = Number(new URL(listener.url).port);
    try {
      const call = await fetch(listener.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', id: `${'i'.repeat(100_000)}${HOSTILE}`, method: `${'m'.repeat(100_000)}${HOSTILE}`, params: {} }),
      });
      await call.text();
      const short = await fetch(listener.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: HOSTILE, method: `tools/${HOSTILE}`, params: {} }) });
      await short.text();
      // Node's parser refuses control characters and bytes over 0x7f in a path itself (400, before the handler): the path's risk is its length.
      const answer = await rawRequest(port, Buffer.concat([Buffer.from('GET /mcp'), Buffer.from([0x9b]), Buffer.from('31m/x HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n')]));
      expect(answer).toMatch(/^HTTP\/1\.1 400/);
      const long = await fetch(`${listener.url}/${'p'.repeat(5_000)}%1B%0A`);
      expect(long.status).toBe(404);
      await long.text();
    } finally {
      await listener.close();
    }
    const written = lines.join('');
    // Every line ends with the one newline its writer put there.
    expect(written.split('\n').length - 1).toBe(lines.length);
    for (const line of lines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toMatch(UNSAFE);
      const entry = JSON.parse(line) as Record<string, unknown>;
      for (const value of Object.values(entry)) if (typeof value === 'string') expect(value.length).toBeLessThanOrEqual(1_000);
    }
    const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The text is all there, only escaped: once parsed, the hostile characters come back.
    expect(entries).toContainEqual(expect.objectContaining({ msg: 'http request', rpc: `tools/${HOSTILE}`, id: HOSTILE }));
    expect(entries).toContainEqual(expect.objectContaining({ rpc: expect.stringMatching(/^m{255}…$/), id: expect.stringMatching(/^i{255}…$/) }));
    expect(entries).toContainEqual(expect.objectContaining({ status: 404, path: expect.stringMatching(/^\/mcp\/p{250}…$/) }));
    expect(entries.some((e) => e.msg === 'forged')).toBe(false);
  });

  it('writes 20 warn lines of a flood of 500 bad requests, then one line with the count of the others', async () => {
    const lines: string[] = [];
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true, exitOnSignal: false, requestLogLevel: 'warn', logWrite: (line) => lines.push(line) });
    const origin = new URL(listener.url).origin;
    try {
      for (let i = 0; i < 500; i++) {
        const response = await fetch(`${origin}/nope-${i}`);
        expect(response.status).toBe(404);
        await response.text();
      }
      const entries = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      // The first ones are written as they come, with their paths.
      expect(entries()).toHaveLength(20);
      expect(entries()[0]).toMatchObject({ level: 'warn', msg: 'http request', status: 404, path: '/nope-0' });
      // A server error is another kind: written though 404s are being left out.
      const refused = await fetch(listener.url, { method: 'POST', headers, body: '{' });
      expect(refused.status).toBe(400);
      await refused.text();
      expect(entries().at(-1)).toMatchObject({ level: 'warn', status: 400 });
    } finally {
      await listener.close();
    }
    // Closing reports what was left out (else the end of the 10 s window does).
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>).at(-1)).toMatchObject({ level: 'warn', msg: 'http requests not logged', status: 404, count: 480, seconds: 10 });
  });
});
