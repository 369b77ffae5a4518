import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { connectClient, messagesOf, openRawSession, post, textOf } from './fixtures/httpHelpers';

class PollingTools {
  @Tool({ description: 'Lets go of its stream, works a little, then answers.' })
  async poll(@Ctx() ctx: ToolContext) {
    const closed = ctx.closeStream();
    await new Promise((resolve) => setTimeout(resolve, 50));
    return `closed: ${closed}`;
  }
}

describe('SSE polling: ctx.closeStream()', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'polling', version: '1.0.0', tools: [PollingTools] });
    listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, sseRetryMs: 20 });
  });
  afterAll(() => listener.close());

  it('ends the call’s stream before the result; a GET with Last-Event-ID gets the result', async () => {
    const session = await openRawSession(listener.url);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await post(listener.url, { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'poll', arguments: {} } }, headers);
    const first = await call.text();
    expect(first).toMatch(/^id: (\S+)\nretry: 20\ndata: \n\n$/);
    const lastEventId = /^id: (\S+)/.exec(first)![1];

    const resumed = await fetch(listener.url, { headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
    expect(resumed.status).toBe(200);
    expect(await messagesOf(resumed)).toEqual([{ jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'closed: true' }] } }]);
  });

  it('is transparent to the SDK client, which reconnects by itself', async () => {
    const { client } = await connectClient(listener.url);
    expect(textOf(await client.callTool({ name: 'poll', arguments: {} }))).toBe('closed: true');
    await client.close();
  });

  it('returns false where there is no stream to close, and the call goes on', async () => {
    const client = await createTestClient(app);
    expect(textOf(await client.callTool({ name: 'poll', arguments: {} }))).toBe('closed: false');
    await client.close();
    const json = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, jsonResponse: true });
    const { client: viaJson } = await connectClient(json.url);
    expect(textOf(await viaJson.callTool({ name: 'poll', arguments: {} }))).toBe('closed: false');
    await viaJson.close();
    await json.close();
  });
});
