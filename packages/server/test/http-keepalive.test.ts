import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { NodeStreamableTransport } from '../src/http/NodeStreamableTransport';
import { waitFor } from './fixtures/waitFor';

/**
 * Regression: the keep-alive timer wrote to every open SSE stream and a write that threw
 * escaped from the timer callback, which would take the whole server process down (seen in
 * CI as "this.res.write is not a function" from a stream of a finished test file).
 */
describe('SSE keep-alive', () => {
  it('ends a stream whose write fails, reports it, and keeps the process alive', async () => {
    const transport = new NodeStreamableTransport({ sessionId: 'keepalive-test', keepAliveMs: 20 });
    const errors: Error[] = [];
    const server = new Server({ name: 'k', version: '1' }, { capabilities: {} });
    await server.connect(transport);
    transport.onerror = (error) => void errors.push(error);
    let getResponse: ServerResponse | undefined;
    const http = createServer((req, res) => {
      getResponse = res;
      void transport.handleRequest(req as never, res);
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
    try {
      const init = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'k', version: '1' } } }),
      });
      await init.text();
      const stream = await fetch(url, { headers: { accept: 'text/event-stream', 'mcp-session-id': 'keepalive-test', 'mcp-protocol-version': '2025-11-25' } });
      expect(stream.status).toBe(200);
      const reader = stream.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toContain(': keepalive');
      getResponse!.write = () => {
        throw new Error('write failed');
      };
      // The next keep-alive tick writes, fails, and reports it.
      await waitFor(() => errors.length > 0, 'the failed keep-alive write to be reported');
      expect(errors.map((e) => e.message)).toContain('write failed');
      await reader.cancel();
    } finally {
      await server.close();
      http.closeAllConnections();
      await new Promise((r) => http.close(r));
    }
  });
});
