/**
 * An event stream that starts with what the SDK client skips: a UTF-8 byte-order mark (its
 * TextDecoderStream drops it), or the mark's bytes read as Latin-1, the characters U+00EF U+00BB
 * U+00BF "ï»¿" (its event parser, eventsource-parser, drops them from a first chunk; on the wire
 * the UTF-8 bytes C3 AF C2 BB C2 BF). The CLI's depth check skips both as the client does: each
 * once hid the first event's data from it, and a result 100,000 deep overflowed the stack.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { JsonNesting } from '../src/client/JsonNesting';
import { memoryIo } from './helpers/memoryIo';

jest.setTimeout(60_000);

/** What each kind of stream starts with, by the path its server answers on. */
const LEADS = { bom: '\uFEFF', latin1: '\u00EF\u00BB\u00BF' } as const;

it('counts the data after a byte-order mark, in bytes and in text', () => {
  const nesting = new JsonNesting(3, true);
  expect(nesting.read(Buffer.from('\uFEFFdata: [[[[[[1]]]]]]\n\n'))).toBe(false);
  expect(new JsonNesting(3, true).read('\uFEFFdata: [[[[[[1]]]]]]\n\n')).toBe(false);
  expect(new JsonNesting(3, true).read('\uFEFFdata: [[[1]]]\n\n')).toBe(true);
});

it('counts the data after a Latin-1-read mark, as eventsource-parser reads it', () => {
  expect(new JsonNesting(3, true).read(Buffer.from(`${LEADS.latin1}data: [[[[[[1]]]]]]\n\n`))).toBe(false);
});

describe('toolwright call against an event stream that starts with a mark the client skips', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        if (req.method !== 'POST') return void res.writeHead(405).end();
        const message = JSON.parse(body) as { id?: number | string; method: string };
        if (message.id === undefined) return void res.writeHead(202).end();
        const [, lead, size] = (req.url ?? '').split('/') as [string, keyof typeof LEADS, string];
        const depth = size === 'shallow' ? 10 : 100_000;
        const result =
          message.method === 'initialize'
            ? JSON.stringify({ protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'deep', version: '1.0.0' } })
            : message.method === 'tools/call'
              ? `{"content":[],"structuredContent":{"a":${'['.repeat(depth)}${']'.repeat(depth)}}}`
              : undefined;
        const text = `{"jsonrpc":"2.0","id":${JSON.stringify(message.id)},${result === undefined ? '"error":{"code":-32601,"message":"Method not found"}' : `"result":${result}`}}`;
        res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`${LEADS[lead]}data: ${text}\n\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const cli = async (argv: string[]) => {
    const io = memoryIo(tmpdir());
    let code: number | string;
    try {
      code = await runCli(argv, io);
    } catch (error) {
      code = `threw ${String(error).slice(0, 200)}`;
    }
    return { code, stdout: io.output().slice(0, 300), stderr: io.errors().slice(0, 600) };
  };

  for (const lead of Object.keys(LEADS)) {
    it(`${lead}, control: the SDK reads such a stream (a shallow result, exit 0)`, async () => {
      const answer = await cli(['call', '--json', `${url}/${lead}/shallow`, 'deep', '--timeout', '8000']);
      expect({ code: answer.code, stderr: answer.stderr }).toEqual({ code: 0, stderr: '' });
    });

    it(`${lead}: a result 100,000 levels deep is refused with the depth message and exit 3`, async () => {
      const answer = await cli(['call', `${url}/${lead}/deep`, 'deep', '--timeout', '8000']);
      expect(answer).toEqual({
        code: 3,
        stdout: '',
        stderr: `error: ${url}/${lead}/deep sent a message that nests objects and arrays more than 500 levels deep, more than toolwright reads. Flatten the result or schema.\n`,
      });
    });
  }
});
