import { connect, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createFetchHandler } from '@toolwright/server/fetch';
import { BAD_ENVELOPES, BAD_PARAMS, ERAS } from './fixtures/eras';
import { HttpMembers, HttpTools } from './fixtures/http.tools';
import { ACCEPT_BOTH, initializeBody, messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** Memory the process holds in JavaScript objects and buffers (read after gc(), what is still referenced). */
const held = () => {
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
};

const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };

/** How each HTTP mode is served, and the headers a raw request of it needs. */
const MODES = [
  { name: 'stateful SSE', options: {} },
  { name: 'stateful JSON', options: { jsonResponse: true } },
  { name: 'stateless', options: { stateless: true } },
  { name: "stateful, the SDK's transport", options: { httpTransport: 'sdk' } },
] as const;

/** A raw TCP exchange: writes `text`, resolves with everything read until the server closes (or `waitMs` passes). */
function rawExchange(port: number, text: string, waitMs = 3000): Promise<{ data: string; closedByServer: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(text));
    let data = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ data, closedByServer: false });
    }, waitMs);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ data, closedByServer: true });
    });
    socket.on('error', () => undefined);
  });
}

describe.each(ERAS)('HTTP, every request answered once ($name)', (era) => {
  let app: App;
  const listeners: HttpListener[] = [];
  beforeAll(async () => {
    app = await createApp({ name: 'hostile', version: '1.0.0', tools: [HttpTools, HttpMembers] });
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  describe.each(MODES)('$name', (mode) => {
    let url: string;
    let headers: Record<string, string>;
    beforeAll(async () => {
      const listener = await app.listen({ transport: 'http', port: 0, ...quiet, ...mode.options });
      listeners.push(listener);
      url = listener.url;
      // A 2026-07-28 request needs no session: it carries its era in its envelope and headers.
      headers = 'stateless' in mode.options || era.modern ? {} : { 'mcp-session-id': await openRawSession(url), 'mcp-protocol-version': era.version };
    });
    /** The headers a request of this era sends: the session's, and the era's own for this message. */
    const headersFor = (message: Record<string, unknown>) => ({ ...headers, ...era.headers(message) });

    it.each([
      ['an id above 2^53', '{"jsonrpc":"2.0","id":1e20,"method":"ping"}', null],
      ['a progressToken above 2^53', '{"jsonrpc":"2.0","id":7,"method":"ping","params":{"_meta":{"progressToken":1e20}}}', 7],
      ['a fractional id', '{"jsonrpc":"2.0","id":1.5,"method":"ping"}', null],
      ['an extra member', '{"jsonrpc":"2.0","id":"x","method":"ping","extra":1}', 'x'],
      ['params null', '{"jsonrpc":"2.0","id":"p","method":"resources/read","params":null}', 'p'],
      ['JSON that is not JSON-RPC', '{"hello":"world"}', null],
    ])('%s: 400 with -32600 and the id when usable', async (_, body, id) => {
      const response = await post(url, body, headersFor(JSON.parse(body) as Record<string, unknown>));
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ jsonrpc: '2.0', id, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: /) } });
    });

    it.each(BAD_PARAMS)('%s with bad params: -32602 naming the field', async (method, params, field) => {
      const message = era.request({ jsonrpc: '2.0', id: 'bad', method, ...(params && { params }) });
      const response = await post(url, message, method === 'initialize' ? era.headers(message) : headersFor(message));
      if (era.removed.includes(method)) {
        // A method the era removed is unknown whatever its params: the SDK's 404 with -32601.
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 'bad', error: { code: -32601 } });
        return;
      }
      if (method === 'initialize' && mode.name === "stateful, the SDK's transport") {
        // The SDK's transport reads an initialize itself before any server sees it, and refuses it.
        expect(response.status).toBe(400);
        expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
        return;
      }
      expect(response.status).toBe(200);
      // The SDK answers, in the response form the request asked for (one JSON body or an SSE stream).
      expect(await messagesOf(response)).toEqual([{ jsonrpc: '2.0', id: 'bad', error: { code: -32602, message: expect.stringContaining(`Invalid params for ${method}: ${field}`) } }]);
    });

    (era.modern ? it : it.skip).each(BAD_ENVELOPES)("a bad envelope (%s): 400 with its JSON-RPC error and the request's id", async (_, meta, code) => {
      const message = { jsonrpc: '2.0', id: 'env', method: 'tools/list', params: { _meta: meta } };
      const response = await post(url, message, headersFor(message));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 'env', error: { code } });
    });

    it('-32700 only for a body that is not JSON', async () => {
      const response = await post(url, '{"jsonrpc":', headersFor({}));
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ id: null, error: { code: -32700 } });
    });

    it('Accept is parsed: no substring matches, q=0 refuses, parameters are fine', async () => {
      const ping = JSON.stringify(era.alive);
      for (const accept of ['application/jsonx, text/event-streamx', 'application/json;q=0, text/event-stream', 'application/json, text/event-stream; q=0', '*/*']) {
        const refused = await post(url, ping, { ...headersFor(era.alive), accept });
        expect([accept, refused.status]).toEqual([accept, 406]);
        await refused.text();
      }
      const fine = await post(url, ping, { ...headersFor(era.alive), accept: 'application/json; q=0.5, text/event-stream;q=1' });
      expect(fine.status).toBe(200);
      await fine.text();
    });

    it('two Host headers: 400', async () => {
      const port = new URL(url).port;
      const body = JSON.stringify(era.alive);
      const lines = [`POST /mcp HTTP/1.1`, `Host: 127.0.0.1:${port}`, 'Host: evil.example', 'Content-Type: application/json', `Accept: ${ACCEPT_BOTH}`, `Content-Length: ${body.length}`];
      for (const [name, value] of Object.entries(headersFor(era.alive))) lines.push(`${name}: ${value}`);
      const { data } = await rawExchange(Number(port), `${lines.join('\r\n')}\r\n\r\n${body}`);
      expect(data).toMatch(/^HTTP\/1\.1 400 /);
      expect(data).toContain('more than one Host header');
    });
  });

  (era.modern ? it.skip : it)('MCP-Protocol-Version must be the one the session negotiated (2025-03-26, what the spec assumes without the header, counts as none)', async () => {
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet });
    listeners.push(listener);
    const session = await openRawSession(listener.url);
    const ping = era.request({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const older = await post(listener.url, ping, { 'mcp-session-id': session, 'mcp-protocol-version': '2024-11-05' });
    expect(older.status).toBe(400);
    expect(await older.json()).toMatchObject({ error: { code: -32000, message: expect.stringContaining("differs from the version this session negotiated, '2025-11-25'") } });
    for (const version of [era.version, '2025-03-26']) {
      const fine = await post(listener.url, ping, { 'mcp-session-id': session, 'mcp-protocol-version': version });
      expect(fine.status).toBe(200);
      await fine.text();
    }
  });
});

describe('HTTP listener: port 0 and auth metadata', () => {
  it('advertises the real port in the RFC 9728 metadata and the challenge when auth.resource is left out', async () => {
    const app = await createApp({ name: 'port0', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({
      transport: 'http',
      port: 0,
      ...quiet,
      auth: { authorizationServers: ['https://auth.example.com'], verifyToken: () => undefined },
    });
    try {
      expect(listener.port).toBeGreaterThan(0);
      const metadata = await fetch(`http://127.0.0.1:${listener.port}/.well-known/oauth-protected-resource/mcp`);
      expect(await metadata.json()).toMatchObject({ resource: listener.url });
      const refused = await post(listener.url, initializeBody());
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain(`resource_metadata="http://127.0.0.1:${listener.port}/.well-known/oauth-protected-resource/mcp"`);
    } finally {
      await listener.close();
    }
  });
});

describe('HTTP timeouts and limits: slow and idle clients are let go, long SSE streams are not', () => {
  let app: App;
  let listener: HttpListener;
  let port: number;
  beforeAll(async () => {
    app = await createApp({ name: 'timeouts', version: '1.0.0', tools: [HttpTools] });
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, timeouts: { headersMs: 500, requestMs: 800, idleMs: 300, bodyMs: 600 }, maxConnections: 20 });
    port = listener.port;
  });
  afterAll(() => listener.close());

  it('closes a connection that sends nothing, and one whose headers trickle in (slowloris)', async () => {
    const idle = rawExchange(port, '', 4000);
    const slow = new Promise<{ closedByServer: boolean }>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n'));
      const drip = setInterval(() => socket.write(`X-Drip-${Date.now()}: 1\r\n`), 100);
      let gaveUp = false;
      const give = setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, 4000);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        clearTimeout(give);
        resolve({ closedByServer: !gaveUp });
      });
    });
    // Both closed by the server, before the client gives up (headersMs is 500).
    expect((await idle).closedByServer).toBe(true);
    expect((await slow).closedByServer).toBe(true);
  });

  it('a body that stalls gets 408 and its connection closed, holding no buffer', async () => {
    const head = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: 1000\r\n\r\n{"jsonrpc":`;
    const { data, closedByServer } = await rawExchange(port, head, 4000);
    expect(closedByServer).toBe(true);
    expect(data).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes an idle keep-alive connection after idleMs', async () => {
    const body = JSON.stringify(initializeBody());
    const request = `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const { data, closedByServer } = await rawExchange(port, request, 4000);
    expect(data).toMatch(/^HTTP\/1\.1 200 /);
    // Closed by the server (idleMs is 300), not by the client giving up after 4 s.
    expect(closedByServer).toBe(true);
  });

  it('keeps an SSE stream open past every timeout', async () => {
    const session = await openRawSession(listener.url);
    const controller = new AbortController();
    const stream = await fetch(listener.url, { headers: { accept: 'text/event-stream', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, signal: controller.signal });
    expect(stream.status).toBe(200);
    const reader = stream.body!.getReader();
    // Past the headers, request and idle timeouts, the stream has not ended (a read would resolve done).
    const read = reader.read().then((r) => (r.done ? 'ended' : 'data'));
    const outcome = await Promise.race([read, new Promise((r) => setTimeout(() => r('open'), 2500))]);
    controller.abort();
    expect(outcome).not.toBe('ended');
  });

  it('refuses connections beyond maxConnections', async () => {
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 30; i++) {
        const socket = connect(port, '127.0.0.1');
        socket.on('error', () => undefined);
        sockets.push(socket);
      }
      const closed = () => sockets.filter((s) => s.destroyed || s.readyState === 'closed').length;
      await waitFor(() => closed() >= 10, 'the connections beyond the 20 to be refused', { detail: () => `${closed()} closed` });
    } finally {
      for (const s of sockets) s.destroy();
    }
  });
});

/** A call whose response stream carries `count` progress notifications of `size` bytes each before its result. */
class FloodTools {
  @Tool({ description: 'Sends many large progress notifications, then answers.' })
  async flood(@Param('count', { type: () => Number }) count: number, @Param('size', { type: () => Number }) size: number, @Ctx() ctx: ToolContext) {
    const text = 'x'.repeat(size);
    for (let i = 1; i <= count; i++) {
      await ctx.progress(i, count, text);
      // Paced as real work is: a client that reads keeps up.
      if (i % 2 === 0) await new Promise((r) => setTimeout(r, 1));
    }
    return 'flooded';
  }
}

describe.each(ERAS)('HTTP maxBufferedBytes ($name): a client reading too slowly is dropped, one that reads gets everything', (era) => {
  let listener: HttpListener;
  const CAP = 256 * 1024;
  beforeAll(async () => {
    const app = await createApp({ name: 'flood', version: '1.0.0', tools: [FloodTools] });
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, maxBufferedBytes: CAP });
  });
  afterAll(() => listener.close());

  /** `count` notifications of 64 KiB on the call's SSE stream. */
  const floodRequest = async (id: string, count: number) => {
    const message = era.request({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'flood', arguments: { count, size: 65_536 }, _meta: { progressToken: id } } });
    const headers: Record<string, string> = era.modern ? era.headers(message) : { 'mcp-session-id': await openRawSession(listener.url), 'mcp-protocol-version': era.version };
    return { body: JSON.stringify(message), headers };
  };

  it('closes the stream of a client that does not read, instead of buffering the call for it', async () => {
    // 64 MiB: far more than the socket buffers take.
    const { body, headers } = await floodRequest('stalled', 1024);
    const lines = ['POST /mcp HTTP/1.1', `Host: 127.0.0.1:${listener.port}`, 'Content-Type: application/json', `Accept: ${ACCEPT_BOTH}`, `Content-Length: ${Buffer.byteLength(body)}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    gc();
    const heldBefore = held();
    let heldWhileStalled = 0;
    const { closed, data } = await new Promise<{ closed: boolean; data: string }>((resolve) => {
      let data = '';
      const socket = connect(listener.port, '127.0.0.1', () => {
        socket.write(`${lines.join('\r\n')}\r\n\r\n${body}`);
        // Reads nothing for a while: whatever the server writes piles up in its buffers. Then reads what was let through.
        socket.pause();
        setTimeout(() => {
          // What is still referenced after a full collection: the notifications the tool made since are garbage, not held.
          gc();
          heldWhileStalled = held() - heldBefore;
          socket.resume();
        }, 3000);
      });
      socket.setEncoding('latin1').on('data', (chunk: string) => (data += chunk.slice(-64)));
      const timer = setTimeout(() => {
        socket.destroy();
        resolve({ closed: false, data });
      }, 20_000);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ closed: true, data });
      });
    });
    // The server ended the stream before the call was over (the result never came).
    expect(closed).toBe(true);
    expect(data).not.toContain('flooded');
    // The 64 MiB were not kept for it (the socket buffers and the cap hold a few MiB at most).
    expect(heldWhileStalled).toBeLessThan(32 * 1024 * 1024);
  }, 30_000);

  it('a client that reads gets every notification and the result, with the same cap', async () => {
    const { body, headers } = await floodRequest('reader', 256);
    const response = await post(listener.url, body, headers);
    expect(response.status).toBe(200);
    const messages = await messagesOf(response);
    expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(256);
    expect(messages.at(-1)).toMatchObject({ id: 'reader', result: { content: [{ type: 'text', text: 'flooded' }] } });
  }, 30_000);
});

describe('HTTP timeouts: requestMs (node, the whole request) and bodyMs (ours, the body once headers are in) are told apart', () => {
  // node enforces requestMs as at least headersMs, checked once a second: headersMs is set below requestMs here.
  /** POSTs a body one byte every 100 ms; resolves with what came back, and whether the server cut it before its end. */
  const trickle = (port: number): Promise<{ data: string; cut: boolean }> =>
    new Promise((resolve) => {
      const body = JSON.stringify(initializeBody()).padEnd(30, ' ');
      let data = '';
      let sent = 0;
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      });
      const drip = setInterval(() => (sent < body.length && !socket.destroyed ? socket.write(body[sent++]) : undefined), 100);
      socket.setEncoding('utf8').on('data', (chunk: string) => (data += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ data, cut: !gaveUp && sent > 0 && sent < body.length });
      });
      let gaveUp = false;
      setTimeout(() => {
        gaveUp = true;
        socket.destroy();
      }, 6000);
    });

  it.each([
    ['requestMs', { requestMs: 800, bodyMs: 5000 }, /^HTTP\/1\.1 408 /, 'timeouts.bodyMs', false],
    ['bodyMs', { requestMs: 5000, bodyMs: 800 }, /^HTTP\/1\.1 408 /, 'timeouts.bodyMs', true],
  ] as const)('a slowly trickling body is cut by %s', async (_, timeouts, status, ours, oursExpected) => {
    const app = await createApp({ name: 'trickle', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, timeouts: { headersMs: 500, idleMs: 5000, ...timeouts } });
    try {
      const { data, cut } = await trickle(listener.port);
      expect(data).toMatch(status);
      // Ours says which setting to raise; node's own 408 (requestTimeout) has no JSON-RPC body.
      expect(data.includes(ours)).toBe(oursExpected);
      // Cut while the body was still coming in.
      expect(cut).toBe(true);
    } finally {
      await listener.close();
    }
  });
});

describe('one URL limit: the node listener and the fetch handler measure the same URL', () => {
  it('answers a URL over maxUrlLength 414 in both, and one at the limit in both', async () => {
    const app = await createApp({ name: 'long-url', version: '1.0.0', tools: [HttpTools] });
    const listener = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true, maxUrlLength: 200 });
    const fetchHandler = createFetchHandler(app, { stateless: true, maxUrlLength: 200, allowedHosts: ['127.0.0.1'], logError: () => {} });
    try {
      const at = (length: number) => `${listener.url}?q=${'a'.repeat(length - listener.url.length - 3)}`;
      const headers = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
      for (const [url, status] of [
        [at(200), 200],
        [at(201), 414],
      ] as const) {
        expect(url).toHaveLength(status === 200 ? 200 : 201);
        const overNode = await post(url, JSON.stringify(initializeBody()), headers);
        const overFetch = await fetchHandler(new Request(url, { method: 'POST', headers, body: JSON.stringify(initializeBody()) }));
        expect([overNode.status, overFetch.status]).toEqual([status, status]);
        // Read whole: a POST counts for the drain until its answer is out.
        const [nodeBody, fetchBody] = [await overNode.text(), await overFetch.text()];
        if (status === 414) expect(JSON.parse(nodeBody)).toEqual(JSON.parse(fetchBody));
      }
      // The default is the same 8192 in both.
      const defaults = await app.listen({ transport: 'http', port: 0, ...quiet, stateless: true });
      try {
        expect((await post(`${defaults.url}?q=${'a'.repeat(9000)}`, JSON.stringify(initializeBody()), headers)).status).toBe(414);
      } finally {
        await defaults.close();
      }
    } finally {
      await fetchHandler.close();
      await listener.close();
    }
  });
});
