import { InMemoryTransport, PerRequestHTTPServerTransport } from '@modelcontextprotocol/server';
import { ToolwrightServer } from '../src/sdk/ToolwrightServer';
import { Connections } from '../src/surface/Connections';

// The live connections get every list change and resource update. A server connected to the SDK's
// per-request HTTP transport (one 2026-07-28 HTTP request) stays out of them: that transport drops
// every message not related to its request, and tracking one server per request cost CPU on every call.
function newServer(): ToolwrightServer {
  return new ToolwrightServer({}, { name: 'live-test', version: '1.0.0' }, { capabilities: { tools: {} } });
}

describe('Connections: which servers are live', () => {
  it('tracks a server from its connection to a long-lived transport until it closes', async () => {
    const connections = new Connections('info', 10);
    const server = newServer();
    connections.open(server, 'legacy');
    expect(connections.size).toBe(0);
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    expect(connections.size).toBe(1);
    await server.close();
    expect(connections.size).toBe(0);
  });

  it('tracks a 2026-07-28 server on a long-lived transport (stdio, in memory)', async () => {
    const connections = new Connections('info', 10);
    const server = newServer();
    connections.open(server, 'modern');
    const [, serverSide] = InMemoryTransport.createLinkedPair();
    await server.connect(serverSide);
    expect(connections.size).toBe(1);
    await server.close();
    expect(connections.size).toBe(0);
  });

  it('leaves out a server connected to the per-request HTTP transport', async () => {
    const connections = new Connections('info', 10);
    const server = newServer();
    connections.open(server, 'modern');
    await server.connect(new PerRequestHTTPServerTransport({ classification: { era: 'modern', revision: '2026-07-28' } }));
    expect(connections.size).toBe(0);
    await server.close();
    expect(connections.size).toBe(0);
  });
});
