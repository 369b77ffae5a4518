import { once } from 'node:events';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { RawSession, STDIO_SERVER as SERVER } from './fixtures/rawStdio';

describe('stdio transport (a real child process)', () => {
  let session: RawSession;
  afterEach(() => session?.child.kill('SIGKILL'));

  it('keeps stdout for JSON-RPC: console output and stray writes go to stderr', async () => {
    session = await RawSession.start();
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'noisy', arguments: {} } });
    expect(await session.response(1)).toMatchObject({ result: { content: [{ type: 'text', text: 'ok' }] } });
    for (const line of session.lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(session.stderr).toContain('console.log from a tool');
    expect(session.stderr).toContain('console.info from a tool');
    expect(session.stderr).toContain('process.stdout.write from a tool');
  });

  it('answers malformed lines with JSON-RPC errors and keeps serving', async () => {
    session = await RawSession.start();
    session.send('{"jsonrpc": "2.0", "id": 7, "method": ');
    expect(await session.response(null)).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid JSON.' } });
    session.send({ id: 8, method: 'tools/list' });
    expect(await session.response(8)).toMatchObject({ error: { code: -32600 } });
    session.send({ jsonrpc: '2.0', id: 9, method: 'no/such/method' });
    expect(await session.response(9)).toMatchObject({ error: { code: -32601 } });
    session.send({ jsonrpc: '2.0', id: 10, method: 'tools/list' });
    expect(await session.response(10)).toMatchObject({ result: { tools: [{ name: 'noisy' }, { name: 'slow' }, { name: 'ask' }, { name: 'whoami' }] } });
  });

  it('exits with code 0 when stdin closes, after answering what it already received', async () => {
    session = await RawSession.start();
    const exit = once(session.child, 'exit');
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { ms: 200 } } });
    session.child.stdin.end();
    expect(await exit).toEqual([0, null]);
    expect(await session.response(1)).toMatchObject({ result: { content: [{ type: 'text', text: 'slept 200' }] } });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('finishes in-flight calls on %s, then exits 0', async (signal) => {
    session = await RawSession.start();
    session.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow', arguments: { ms: 300 }, _meta: { progressToken: 'p' } } });
    await session.waitFor((m) => m.method === 'notifications/progress'); // the call runs
    const exit = once(session.child, 'exit');
    session.child.kill(signal);
    expect(await session.response(1)).toMatchObject({ result: { content: [{ type: 'text', text: 'slept 300' }] } });
    expect(await exit).toEqual([0, null]);
  });

  it('ends quietly with code 0 when the client stops reading its output (EPIPE)', async () => {
    session = await RawSession.start();
    const exit = once(session.child, 'exit');
    session.child.stdout.destroy();
    for (let id = 1; id <= 3; id++) session.send({ jsonrpc: '2.0', id, method: 'tools/list' });
    expect(await exit).toEqual([0, null]);
    expect(session.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
  });

  it('serves the SDK client over StdioClientTransport', async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [SERVER], stderr: 'pipe' });
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(transport);
    const results = await Promise.all([1, 2, 3].map((ms) => client.callTool({ name: 'slow', arguments: { ms } })));
    expect(results.map((r) => (r.content as { text: string }[])[0].text)).toEqual(['slept 1', 'slept 2', 'slept 3']);
    await client.close();
  });
});
