/**
 * `toolwright call` on a 2026-07-28 task server whose answers come on an event stream that carries
 * a notification first, written as the format allows: LF, CRLF, and `data:` without a space (once
 * refused as "no JSON-RPC answer").
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { memoryIo } from './helpers/memoryIo';

jest.setTimeout(60_000);

const task = (status: string, extra: Record<string, unknown> = {}) => ({
  resultType: 'task',
  taskId: 't1',
  status,
  createdAt: '2026-01-01T00:00:00.000Z',
  lastUpdatedAt: '2026-01-01T00:00:00.000Z',
  ttlMs: 60_000,
  pollIntervalMs: 20,
  ...extra,
});

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const { id, method } = JSON.parse(body) as { id?: number; method: string };
      if (id === undefined) return void res.writeHead(202).end();
      const result =
        method === 'server/discover'
          ? { supportedVersions: ['2026-07-28'], capabilities: { tools: {}, extensions: { 'io.modelcontextprotocol/tasks': {} } }, resultType: 'complete' }
          : method === 'tools/call'
            ? task('working')
            : method === 'tasks/get'
              ? task('completed', { result: { content: [{ type: 'text', text: 'done' }] } })
              : undefined;
      const answer = JSON.stringify(result ? { jsonrpc: '2.0', id, result } : { jsonrpc: '2.0', id, error: { code: -32601, message: 'no' } });
      const note = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working on it' } });
      const [eol, sep] = req.url === '/crlf' ? ['\r\n', 'data: '] : req.url === '/nospace' ? ['\n', 'data:'] : ['\n', 'data: '];
      res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`event: message${eol}${sep}${note}${eol}${eol}event: message${eol}${sep}${answer}${eol}${eol}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((resolve) => server.close(() => resolve()));
});

for (const path of ['/lf', '/crlf', '/nospace'])
  it(`${path}: a notification before the answer on the same stream`, async () => {
    const io = memoryIo(tmpdir());
    const code = await runCli(['call', `${base}${path}`, 'echo', '--protocol', '2026-07-28', '--timeout', '5000'], io);
    const seen = { code, stdout: io.output(), stderr: io.errors().slice(0, 400) };
    console.log(path, seen);
    expect({ code, stdout: seen.stdout }).toEqual({ code: 0, stdout: 'done\n' });
  });
