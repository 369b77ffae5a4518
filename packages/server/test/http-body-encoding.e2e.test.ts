import { request as httpRequest } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { createApp, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, connectClient, initializeBody, textOf } from './fixtures/httpHelpers';
import { serveFetch } from './fixtures/serveFetch';

/**
 * A POST body the endpoint would not read as sent is refused unread with 415, on the node
 * listener and on the fetch handler behind a real server: a Content-Encoding (bodies are not
 * decoded, so none inflates past maxBodyBytes), and a charset other than UTF-8 (RFC 8259).
 * Bytes that are not UTF-8 are a parse error (400); a leading byte-order mark is ignored.
 */
const INITIALIZE = Buffer.from(JSON.stringify(initializeBody()));
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const NOT_UTF8 = { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the request body is not valid UTF-8. Send JSON encoded as UTF-8 (RFC 8259).' } };

/** The initialize request with `bytes` inside its client's name, so that the body is valid JSON whatever the bytes. */
function initializeWithNameBytes(bytes: readonly number[]): Buffer {
  const [head, tail] = JSON.stringify(initializeBody()).split('"raw"');
  return Buffer.concat([Buffer.from(`${head}"r`), Buffer.from(bytes), Buffer.from(`w"${tail}`)]);
}

/** A chunked POST (no Content-Length), one write per chunk; resolves with the status and the body's text. */
function postChunked(url: string, chunks: readonly Buffer[]): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
    });
    request.on('error', reject);
    for (const chunk of chunks) request.write(chunk);
    request.end();
  });
}

/** A POST of raw bytes with the headers a conforming client sends, plus any given. */
function postBytes(url: string, body: Uint8Array, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers }, body });
}

const errorOf = async (response: Response) => (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };

const HOSTS = [
  {
    name: 'node listener',
    async start(app: App) {
      const listener: HttpListener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, maxBodyBytes: 64 * 1024 });
      return { url: listener.url, close: () => listener.close() };
    },
  },
  {
    name: 'fetch handler behind a node server',
    async start(app: App) {
      const handler: FetchHandler = createFetchHandler(app, { logError: () => {}, maxBodyBytes: 64 * 1024 });
      const served = await serveFetch(handler);
      return { url: `${served.url}/mcp`, close: () => handler.close().then(() => served.close()) };
    },
  },
];

describe.each(HOSTS)('$name: bodies it would not read as sent', (host) => {
  let served: { url: string; close(): Promise<void> };
  beforeAll(async () => {
    served = await host.start(await createApp({ name: 'encodings', version: '1.0.0', tools: [HttpTools] }));
  });
  afterAll(() => served.close());

  it.each([
    ['gzip', gzipSync(INITIALIZE)],
    ['deflate', deflateSync(INITIALIZE)],
    ['br', brotliCompressSync(INITIALIZE)],
    ['GZIP', gzipSync(INITIALIZE)],
    ['zstd-x', INITIALIZE],
    ['identity, gzip', gzipSync(INITIALIZE)],
  ])('Content-Encoding %s: 415 naming the coding and the fix, Accept-Encoding: identity, not a misleading parse error', async (coding, body) => {
    const response = await postBytes(served.url, body, { 'content-encoding': coding });
    expect(response.status).toBe(415);
    expect(response.headers.get('accept-encoding')).toBe('identity');
    const answer = await errorOf(response);
    expect(answer).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining(`Content-Encoding ${coding.replace('identity, ', '').toLowerCase()}`) } });
    expect(answer.error.message).toMatch(/Send it uncompressed/);
  });

  it('a zip bomb (10 MB of zeros gzipped to some 10 kB) is refused unread, at once', async () => {
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
    expect(bomb.byteLength).toBeLessThan(64 * 1024);
    // No clock here: 415 is the refusal (10 MB inflated would pass the 4 MB body limit: 413), and a
    // server that waited instead of answering fails at jest's test timeout.
    const response = await postBytes(served.url, bomb, { 'content-encoding': 'gzip' });
    expect(response.status).toBe(415);
  });

  it('a hostile Content-Encoding is refused without being quoted back', async () => {
    const response = await postBytes(served.url, INITIALIZE, { 'content-encoding': 'x-<script>alert(1)</script>' });
    expect(response.status).toBe(415);
    const text = await response.text();
    expect(text).not.toContain('script');
    expect(text).toContain('the Content-Encoding');
  });

  it.each(['identity', 'Identity', ''])('Content-Encoding %j (the body as sent) is read', async (coding) => {
    const response = await postBytes(served.url, INITIALIZE, { 'content-encoding': coding });
    expect(response.status).toBe(200);
  });

  it.each([
    ['latin1', Buffer.from(JSON.stringify(initializeBody('café')), 'latin1')],
    ['ISO-8859-1', Buffer.from(JSON.stringify(initializeBody('café')), 'latin1')],
    ['"utf-16"', Buffer.from(JSON.stringify(initializeBody()), 'utf16le')],
    ['UTF-16LE', Buffer.from(JSON.stringify(initializeBody()), 'utf16le')],
    ['windows-1252', INITIALIZE],
    ['us-ascii', INITIALIZE],
    ['', INITIALIZE],
  ])('charset=%s: 415 saying JSON is read as UTF-8, not text silently misread', async (charset, body) => {
    const response = await postBytes(served.url, body, { 'content-type': `application/json; charset=${charset}` });
    expect(response.status).toBe(415);
    const answer = await errorOf(response);
    expect(answer).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('JSON is read as UTF-8') } });
    if (charset !== '') expect(answer.error.message).toContain(`charset=${charset.replace(/"/g, '')}`);
  });

  it.each(['application/json; charset=utf-8', 'application/json; charset="UTF-8"', 'Application/JSON;Charset=utf8', 'application/json; foo="a;charset=latin1"'])('%s is read', async (type) => {
    const response = await postBytes(served.url, Buffer.from(JSON.stringify(initializeBody('café'))), { 'content-type': type });
    expect(response.status).toBe(200);
  });

  it.each([
    ['a lone 0xFF', [0xff], {}],
    ['a truncated sequence', [0xe2, 0x82], { 'content-type': 'application/json; charset=utf-8' }],
    ['an overlong "/"', [0xc0, 0xaf], {}],
    ['an encoded surrogate', [0xed, 0xa0, 0x80], {}],
  ])('%s inside a JSON string: 400, -32700 saying the body is not UTF-8, not text mangled into U+FFFD', async (_, bytes, headers) => {
    const response = await postBytes(served.url, initializeWithNameBytes(bytes), headers);
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toEqual(NOT_UTF8);
  });

  it('sent chunked: a character split across chunks is read whole; bytes that are not UTF-8 are refused', async () => {
    const cafe = initializeWithNameBytes([...Buffer.from('é')]);
    const split = cafe.indexOf(0xc3) + 1;
    expect((await postChunked(served.url, [cafe.subarray(0, split), cafe.subarray(split)])).status).toBe(200);
    const bad = initializeWithNameBytes([0xff]);
    const refused = await postChunked(served.url, [bad.subarray(0, 20), bad.subarray(20)]);
    expect([refused.status, JSON.parse(refused.text)]).toEqual([400, NOT_UTF8]);
  });

  it('a leading UTF-8 byte-order mark is ignored (RFC 8259 §8.1 lets a parser ignore it): the body is read; a second one is text, so no JSON', async () => {
    const response = await postBytes(served.url, Buffer.concat([BOM, INITIALIZE]), {});
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('"protocolVersion":"2025-11-25"');
    const twice = await postBytes(served.url, Buffer.concat([BOM, BOM, INITIALIZE]), {});
    expect([twice.status, (await errorOf(twice)).error]).toEqual([400, { code: -32700, message: 'Parse error: the request body is not valid JSON.' }]);
  });

  it('keeps serving a real client after the refusals, its UTF-8 text intact', async () => {
    const { client } = await connectClient(served.url);
    try {
      expect(JSON.parse(textOf(await client.callTool({ name: 'whoami', arguments: { value: 'café ☕' } }))!)).toMatchObject({ value: 'café ☕' });
    } finally {
      await client.close();
    }
  });
});
