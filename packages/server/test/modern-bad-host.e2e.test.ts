import { connect } from 'node:net';
import type { App } from '@toolwright/server';
import { createFetchHandler } from '@toolwright/server/fetch';
import type { HttpListener } from '@toolwright/server/http';

/**
 * A 2026-07-28 POST to the node listener whose Host header makes no URL (`localhost:abc`, a port
 * past 65535) is a client's mistake: RFC 9112 §3.2 answers it 400. It was a 500, and a
 * "request failed" line with a stack in the server's log, since the era's handler builds a web
 * `Request` from the Host.
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/list',
  params: {
    _meta: {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});

/** A 2025-11-25 initialize: that era reads no URL from the Host. */
const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });

/** One raw POST of `body` (BODY by default) with this Host; resolves with the status and body of the answer. */
function postWithHost(port: number, host: string, body = BODY): Promise<{ status: number; body: string }> {
  const eraHeaders = body === BODY ? 'MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n' : '';
  const request =
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `${eraHeaders}Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const body = /transfer-encoding: chunked/i.test(head)
        ? rest
            .join('\r\n\r\n')
            .replace(/^[0-9a-f]+\r\n/i, '')
            .replace(/\r\n0\r\n\r\n$/, '')
        : rest.join('\r\n\r\n');
      resolve({ status: Number(head.split(' ')[1]), body });
    });
  });
}

describe('node listener, 2026-07-28: a Host header that makes no URL', () => {
  let listener: HttpListener;
  const logged: string[] = [];
  beforeAll(async () => {
    const app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it.each(['localhost:abc', '127.0.0.1:1:2', 'localhost:99999'])('answers Host %j with 400 naming the Host header, and keeps serving', async (host) => {
    const errorWrite = jest.spyOn(process.stderr, 'write').mockImplementation((line) => (logged.push(String(line)), true));
    let answer: { status: number; body: string };
    try {
      answer = await postWithHost(listener.port, host);
    } finally {
      errorWrite.mockRestore();
    }
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('the Host header is not a valid host name and port') } });
    expect(logged.join('')).not.toContain('request failed');
    // The same request with a good Host is served.
    const served = await postWithHost(listener.port, `localhost:${listener.port}`);
    expect(served.status).toBe(200);
    expect(JSON.parse(served.body)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { tools: expect.any(Array) } });
  });
});

/**
 * A Host with user information (`localhost:1@attacker.example`) passed the Host rule, which
 * reads the name before the first colon; the 2026-07-28 era then built a URL with credentials
 * from it, which a web `Request` refuses: 500 and a stack in the log. RFC 9110 §4.2.4 allows
 * no user information in a request's host: 400, in both eras and from the fetch handler.
 */
describe('a Host header with user information', () => {
  const HOST = 'localhost:1@attacker.example';
  const USER_INFO = { jsonrpc: '2.0', id: null, error: { code: -32000, message: expect.stringContaining('carries user information') } };

  it.each([
    ['2026-07-28', BODY],
    ['2025-11-25', INITIALIZE],
  ])('node listener, %s: 400 naming the Host header, no stack in the log, and keeps serving', async (_era, body) => {
    const app = await createErasApp();
    const listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false });
    const logged: string[] = [];
    const errorWrite = jest.spyOn(process.stderr, 'write').mockImplementation((line) => (logged.push(String(line)), true));
    let answer: { status: number; body: string };
    try {
      answer = await postWithHost(listener.port, HOST, body);
    } finally {
      errorWrite.mockRestore();
    }
    try {
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body)).toEqual(USER_INFO);
      expect(answer.body).not.toContain('attacker.example');
      expect(logged.join('')).not.toContain('request failed');
      expect((await postWithHost(listener.port, `localhost:${listener.port}`, body)).status).toBe(200);
    } finally {
      await listener.close();
    }
  });

  it('fetch handler: 400 too (its Host rule read the same name)', async () => {
    const handler = createFetchHandler(await createErasApp(), { logError: () => {} });
    try {
      const request = (host: string) =>
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { host, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/list' },
          body: BODY,
        });
      const refused = await handler(request(HOST));
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual(USER_INFO);
      expect((await handler(request('localhost'))).status).toBe(200);
    } finally {
      await handler.close({ drainTimeoutMs: 0 });
    }
  });
});
