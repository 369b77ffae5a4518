import 'reflect-metadata';
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { StdioTransport } from '@toolwright/server/stdio';

/** An output that records each write and takes it (calls back) only when told to. */
class SlowOutput {
  readonly chunks: string[] = [];
  private callbacks: (() => void)[] = [];
  constructor(private readonly accepts: (chunk: string) => boolean) {}

  readonly write = (chunk: string, done: () => void): boolean => {
    this.chunks.push(chunk);
    this.callbacks.push(done);
    return this.accepts(chunk);
  };

  takeAll(): void {
    for (const done of this.callbacks.splice(0)) done();
  }
}

const response = (id: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: {} });
const settled = async (promise: Promise<unknown>): Promise<boolean> => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('StdioTransport output', () => {
  it('sends the messages of one turn in a single write, in order', async () => {
    const output = new SlowOutput(() => true);
    const transport = new StdioTransport(new PassThrough(), output.write);
    await transport.start();
    await Promise.all([transport.send(response(1)), transport.send(response(2)), transport.send(response(3))]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.chunks).toEqual([`${[1, 2, 3].map((id) => JSON.stringify(response(id))).join('\n')}\n`]);
  });

  it('resolves send at once while the output keeps up', async () => {
    const output = new SlowOutput(() => true);
    const transport = new StdioTransport(new PassThrough(), output.write);
    await transport.start();
    expect(await settled(transport.send(response(1)))).toBe(true);
  });

  it('holds send back while the output is backed up, until it has taken every write', async () => {
    let full = true;
    const output = new SlowOutput(() => !full);
    const transport = new StdioTransport(new PassThrough(), output.write);
    await transport.start();
    await transport.send(response(1)); // accepted before the output reports it is full
    await new Promise((resolve) => setImmediate(resolve));
    expect(output.chunks).toHaveLength(1);

    const second = transport.send(response(2));
    expect(await settled(second)).toBe(false);
    full = false;
    const third = transport.send(response(3));
    expect(await settled(third)).toBe(false);
    expect(output.chunks).toHaveLength(3);

    output.takeAll();
    expect(await settled(second)).toBe(true);
    expect(await settled(third)).toBe(true);
    expect(await settled(transport.send(response(4)))).toBe(true);
  });

  it('reads no more input while a megabyte of answers waits for the output, and reads on once it takes half', async () => {
    const input = new PassThrough();
    const output = new SlowOutput(() => false);
    const transport = new StdioTransport(input, output.write);
    const received: string[] = [];
    transport.onmessage = (message) => received.push((message as { method: string }).method);
    await transport.start();
    const answer = (id: number, size: number): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { text: 'x'.repeat(size) } });

    void transport.send(answer(1, 600_000));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(false);
    void transport.send(answer(2, 600_000));
    await new Promise((resolve) => setImmediate(resolve));
    expect(input.isPaused()).toBe(true);

    input.write('{"jsonrpc":"2.0","method":"waits"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual([]);

    output.takeAll();
    expect(input.isPaused()).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(received).toEqual(['waits']);
  });

  it('outputTaken resolves once the output has taken every write', async () => {
    const output = new SlowOutput(() => true);
    const transport = new StdioTransport(new PassThrough(), output.write);
    await transport.start();
    expect(await settled(transport.outputTaken(60_000))).toBe(true);
    void transport.send(response(1));
    await new Promise((resolve) => setImmediate(resolve));
    const taken = transport.outputTaken(60_000);
    expect(await settled(taken)).toBe(false);
    output.takeAll();
    expect(await taken).toBe(true);
  });

  it('a stdio listener closes only once its output has taken the last answers, which exiting the process would lose', async () => {
    class Pinger {
      @Tool({ description: 'pong' }) ping() {
        return 'pong';
      }
    }
    const app = await createApp({ name: 'held', version: '1', tools: [Pinger] });
    const stdin = new PassThrough();
    const held: (() => void)[] = [];
    let written = '';
    const stdout = new Writable({
      write(chunk, _encoding, done) {
        written += String(chunk);
        held.push(done);
      },
    });
    const listener = await app.listen({ transport: 'stdio', stdin, stdout, exitOnClose: false });
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } } })}\n`);
    while (!written.includes('"id":1')) await new Promise((resolve) => setImmediate(resolve));
    let closed = false;
    const closing = listener.close().then(() => (closed = true));
    // Without the wait, closing is over within a few turns of the event loop: give it fifty.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(closed).toBe(false);
    for (const done of held.splice(0)) done();
    await closing;
  });

  it('reads lines split across chunks and lines ending in \\r\\n', async () => {
    const input = new PassThrough();
    const transport = new StdioTransport(input, new SlowOutput(() => true).write);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    input.write('{"jsonrpc":"2.0","method":"a"}\r\n{"jsonrpc":"2.0",');
    input.write('"method":"b"}\n\n   \n{"jsonrpc":"2.0","method":"c"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.map((m) => (m as { method: string }).method)).toEqual(['a', 'b', 'c']);
  });

  it('answers a line that is not UTF-8 with -32700, never with text mangled into U+FFFD, and reads on; a character split across chunks is read whole', async () => {
    const input = new PassThrough();
    const output = new SlowOutput(() => true);
    const transport = new StdioTransport(input, output.write);
    const received: JSONRPCMessage[] = [];
    transport.onmessage = (message) => received.push(message);
    await transport.start();
    const line = (name: Buffer) => Buffer.concat([Buffer.from('{"jsonrpc":"2.0","method":"'), name, Buffer.from('"}\n')]);
    input.write(line(Buffer.from([0x61, 0xff]))); // a lone 0xFF
    input.write(line(Buffer.from([0xed, 0xa0, 0x80]))); // a UTF-16 surrogate written as UTF-8
    const euro = line(Buffer.from('€'));
    const split = euro.indexOf(0xe2) + 1;
    input.write(euro.subarray(0, split));
    input.write(euro.subarray(split));
    input.write(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), line(Buffer.from('bom'))])); // one leading byte-order mark is ignored
    await new Promise((resolve) => setImmediate(resolve));
    expect(received.map((m) => (m as { method: string }).method)).toEqual(['€', 'bom']);
    const errors = output.chunks
      .join('')
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { id: unknown; error: { code: number; message: string } });
    expect(errors).toEqual([0, 1].map(() => ({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error: the line is not valid UTF-8. Send JSON encoded as UTF-8.' } })));
  });
});
