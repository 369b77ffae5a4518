import { connect } from 'node:net';
import type { App } from '@toolwright/server';
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

/** One raw POST of BODY with this Host; resolves with the status and body of the answer. */
function postWithHost(port: number, host: string): Promise<{ status: number; body: string }> {
  const request =
    `POST /mcp HTTP/1.1\r\nHost: ${host}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n` +
    `MCP-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\nContent-Length: ${Buffer.byteLength(BODY)}\r\nConnection: close\r\n\r\n${BODY}`;
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
