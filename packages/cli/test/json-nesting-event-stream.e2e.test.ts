/**
 * A hostile server's event stream cannot get a message nested deeper than MAX_MESSAGE_DEPTH past
 * the CLI's depth check: only `data` values are counted (a comment, `id` or `event` line of
 * closing brackets once hid the levels the data opened), and a bare CR ends a line as LF does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { JsonNesting } from '../src/client/JsonNesting';
import { memoryIo } from './helpers/memoryIo';

jest.setTimeout(120_000);

describe('JsonNesting on an event stream (unit)', () => {
  it('a comment line of closing brackets between data lines does not hide the levels of the data around it', () => {
    const nesting = new JsonNesting(3, true);
    // data joined: "[[[[[[1]]]]]]" (6 levels), limit 3.
    expect(nesting.read('data: [[[\n: ]]]\ndata: [[[1\ndata: ]]]]]]\n\n')).toBe(false);
  });

  // The SDK's client reads no event stream whose lines end in a bare CR today; the check still reads them as the event-stream format defines.
  it('a quote in a comment line ended by a bare CR hides no bracket of the data that follows', () => {
    const nesting = new JsonNesting(3, true);
    expect(nesting.read(':"\rdata: [[[[[[1]]]]]]\r\r')).toBe(false);
  });
});

describe('toolwright call over HTTP against an event stream that hides its depth', () => {
  let server: Server;
  let url: string;
  let tmp: string;
  /** The deep result's JSON text as SSE lines: every 400 levels, a comment line of 400 closing brackets. */
  const hiddenByComments = (text: string, depth: number, step = 400): string => {
    const at = text.indexOf('"a":') + 4;
    const [head, tail] = [text.slice(0, at), text.slice(at + depth)];
    const lines = [`data: ${head}`];
    for (let i = 0; i < depth; i += step) lines.push(`data: ${'['.repeat(step)}`, `: ${']'.repeat(step)}`);
    lines.push(`data: ${tail}`);
    return `event: message\n${lines.join('\n')}\n\n`;
  };

  beforeAll(async () => {
    tmp = mkdtempSync(join(tmpdir(), 'zz-review5-'));
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number | string; method: string };
        // A control: the same framing with a result 400 levels deep (within the limit), in comment-separated steps of 100.
        const shallow = req.url === '/comments-shallow';
        const depth = shallow ? 400 : 100_000;
        if (message.id === undefined) return void res.writeHead(202).end();
        const result =
          message.method === 'initialize'
            ? JSON.stringify({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1.0.0' } })
            : message.method === 'tools/call'
              ? `{"content":[],"structuredContent":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
              : undefined;
        const text = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${result === undefined ? '"error":{"code":-32601,"message":"Method not found"}' : `"result":${result}`}}`;
        const sse = { 'content-type': 'text/event-stream' };
        if (req.url === '/comments' || shallow) res.writeHead(200, sse).end(message.method === 'tools/call' ? hiddenByComments(text, depth, shallow ? 100 : 400) : `event: message\ndata: ${text}\n\n`);
        else res.writeHead(200, sse).end(`event: message\ndata: ${text}\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    rmSync(tmp, { recursive: true, force: true });
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const cli = async (argv: string[]) => {
    const io = memoryIo(tmp);
    let code: number | string;
    try {
      code = await runCli(argv, io);
    } catch (error) {
      code = `threw ${String(error)}`;
    }
    return { code, stdout: io.output().slice(0, 300), stderr: io.errors().slice(0, 600) };
  };

  it('control: the comment-separated framing of a result 400 levels deep is read (exit 0)', async () => {
    const answer = await cli(['call', '--json', `${url}/comments-shallow`, 'deep', '--timeout', '8000']);
    expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 0, stderr: '' });
  });

  for (const path of ['/sse', '/comments'])
    it(`${path}: a result 100,000 levels deep is refused with the depth message and exit 3`, async () => {
      const answer = await cli(['call', `${url}${path}`, 'deep', '--timeout', '8000']);
      expect(answer).toEqual({
        code: 3,
        stdout: '',
        stderr: `error: ${url}${path} sent a message that nests objects and arrays more than 500 levels deep, more than toolwright reads. Flatten the result or schema.\n`,
      });
    });
});
