import { PassThrough } from 'node:stream';
import { createApp } from '@toolwright/server';
import { NoteTools } from '../snippets/transports/note.tools';
import { serveOver } from '../snippets/transports/streams';
import { sdkEntry } from '../snippets/transports/sdk-entry';
import { waitFor } from '../../packages/server/test/fixtures/waitFor';

describe('transports page', () => {
  it('serves newline-delimited JSON-RPC over a pair of streams', async () => {
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] });
    const input = new PassThrough();
    const output = new PassThrough();
    const lines: Record<string, unknown>[] = [];
    let buffer = '';
    output.on('data', (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      let i: number;
      while ((i = buffer.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buffer.slice(0, i)) as Record<string, unknown>);
        buffer = buffer.slice(i + 1);
      }
    });
    const listener = await serveOver(app, input, output);
    const send = (message: object) => input.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    const answer = (id: number) => waitFor(() => lines.find((l) => l.id === id), `the answer to ${id}`);
    const log = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);

    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } });
    expect(await answer(1)).toMatchObject({ result: { serverInfo: { name: 'notes', version: '1.0.0' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'buy milk' } } });
    expect(await answer(2)).toMatchObject({ result: { content: [{ type: 'text', text: 'Saved note #1.' }] } });
    input.write('this is not json\n');
    expect(await waitFor(() => lines.find((l) => l.id === null), 'the parse error')).toMatchObject({ error: { code: -32700 } });

    await listener.close();
    log.mockRestore();
  });

  it("hands app.createServer to the SDK's own entry as its server factory", async () => {
    const app = await createApp({ name: 'notes', version: '1.0.0', tools: [NoteTools] });
    const handler = sdkEntry(app);
    const post = (body: object) =>
      handler.fetch(
        new Request('http://localhost/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', ...body }),
        }),
      );
    const response = await post({ id: 1, method: 'tools/call', params: { name: 'add_note', arguments: { text: 'buy milk' } } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Saved note #1.');
    await handler.close();
  });
});
