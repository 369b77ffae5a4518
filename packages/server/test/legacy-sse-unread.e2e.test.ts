import { connect, type Socket } from 'node:net';
import type { App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';

/**
 * The legacy HTTP+SSE stream (`legacySse`) is held to `maxBufferedBytes` as the Streamable HTTP
 * streams are: a client that opens `GET /sse`, stops reading it and keeps posting calls no longer
 * makes the server hold every answer (20,000 small calls held 11 MB past a 100 kB bound). Past
 * the bound the stream is dropped, and with it the session (this transport cannot resume).
 */
const { createErasApp } = require('./fixtures/eras-app.js') as { createErasApp: () => Promise<App> };

const MAX_BUFFERED = 64 * 1024;
/** Each call's answer: 512 kB of text. 64 of them (32 MB) are more than a loopback socket's buffers take. */
const TEXT = 'x'.repeat(512 * 1024);

/** Opens `GET /sse` on a raw socket, reads its endpoint event, then stops reading. */
async function openUnreadStream(port: number): Promise<{ socket: Socket; messages: string }> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  await new Promise((resolve) => socket.once('connect', resolve));
  socket.write('GET /sse HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n');
  let text = '';
  for (;;) {
    text += String(await new Promise<Buffer>((resolve) => socket.once('data', resolve)));
    const endpoint = /data: (\/messages\?sessionId=[\w-]+)/.exec(text);
    if (endpoint) {
      socket.pause();
      return { socket, messages: endpoint[1] };
    }
  }
}

describe('legacy HTTP+SSE: a stream its client stops reading', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    const app = await createErasApp();
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, legacySse: true, maxBufferedBytes: MAX_BUFFERED });
  });
  afterAll(() => listener.close());

  it('is dropped once more than maxBufferedBytes wait unsent, ending its session', async () => {
    const { socket, messages } = await openUnreadStream(listener.port);
    const base = listener.url.replace(/\/mcp$/, '');
    const send = (message: object) => fetch(`${base}${messages}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    const init = { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
    expect((await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: init })).status).toBe(202);
    expect((await send({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);

    // Each call is accepted (202) while the stream lives; once it is dropped, the session is gone (404).
    const statuses: number[] = [];
    for (let id = 1; id <= 64 && statuses.at(-1) !== 404; id++) {
      const answer = await send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: TEXT } } });
      await answer.arrayBuffer();
      statuses.push(answer.status);
      // Lets the call's answer be written (or refused) before the next POST.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    expect(statuses.at(-1)).toBe(404);
    expect(statuses.filter((status) => status !== 202 && status !== 404)).toEqual([]);
    // The server closed the connection of the stream it dropped.
    socket.resume();
    await new Promise((resolve) => (socket.destroyed ? resolve(undefined) : socket.once('close', resolve)));
  });

  it('is not dropped while its client reads it', async () => {
    const base = listener.url.replace(/\/mcp$/, '');
    const stream = await fetch(`${base}/sse`, { headers: { accept: 'text/event-stream' } });
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const until = async (found: (text: string) => boolean) => {
      while (!found(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended: ${text.slice(0, 200)}`);
        text += value;
      }
    };
    await until((t) => t.includes('/messages?sessionId='));
    const messages = /data: (\/messages\?sessionId=[\w-]+)/.exec(text)![1];
    const send = (message: object) => fetch(`${base}${messages}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
    await send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2024-11-05', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Answers of 512 kB each, far past the 64 kB bound, reach a client that reads them.
    for (let id = 1; id <= 4; id++) {
      expect((await send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: TEXT } } })).status).toBe(202);
      await until((t) => t.includes(`"id":${id}}`));
      text = '';
    }
    await reader.cancel();
  });
});
