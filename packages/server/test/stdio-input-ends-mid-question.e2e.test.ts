import 'reflect-metadata';
import { PassThrough, Writable } from 'node:stream';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { JSONRPCMessage } from '../src/sdk/sdk';
import { openInputTransport } from './fixtures/openInputTransport';

class AskingTools {
  @Tool({ description: "Asks the client's model, then answers with what it said." })
  async ask(@Ctx() ctx: ToolContext) {
    const reply = await ctx.sample('Say something.');
    return `the model said: ${(reply.content as { text: string }).text}`;
  }
}

type Message = Record<string, unknown>;
const INIT = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } } };
const MODEL_SAID_HI = { role: 'assistant', model: 'm', content: { type: 'text', text: 'hi' } };

/** Serves `tools` over stdio on in-memory streams, and initializes. */
async function serve(tools: (new () => object)[], drainTimeoutMs = 20_000) {
  const app = await createApp({ name: 'asking', version: '1.0.0', tools });
  const stdin = new PassThrough();
  const out: Message[] = [];
  let buffered = '';
  const stdout = new Writable({
    write(chunk, _encoding, done) {
      const lines = (buffered + String(chunk)).split('\n');
      buffered = lines.pop()!;
      out.push(...lines.map((line) => JSON.parse(line) as Message));
      done();
    },
  });
  const first = async (match: (m: Message) => boolean): Promise<Message> => {
    for (let found = out.find(match); ; found = out.find(match)) {
      if (found) return found;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const send = (message: unknown) => stdin.write(`${JSON.stringify(message)}\n`);
  const listener = await app.listen({ transport: 'stdio', stdin, stdout, exitOnClose: false, drainTimeoutMs });
  send(INIT);
  await first((m) => m.id === 'init');
  send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return { stdin, out, first, send, listener };
}

describe('stdio: the client closes its input while a call waits for its answer', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());

  // Once stdin ends no answer can arrive: the question used to wait for one until the drain
  // timeout passed, and the call was then abandoned without the tool ever learning why.
  it("fails the server's open questions at once, so the call answers and the listener closes without waiting for the drain timeout", async () => {
    const { stdin, out, first, send, listener } = await serve([AskingTools]);
    send({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const question = await first((m) => m.method === 'sampling/createMessage');
    stdin.end();
    const answer = await first((m) => m.id === 'call');
    expect(answer.result).toEqual({
      content: [{ type: 'text', text: 'The client did not answer the sampling request: the client closed its input (stdin) before answering, so no answer can arrive.' }],
      isError: true,
    });
    await listener.close();
    // Nothing went out for the question: the error stands in for the answer inside the server.
    expect(out.filter((m) => m.id === question.id && !('method' in m))).toEqual([]);
  });

  // A call still running when stdin ended, which asks only then, used to wait for the drain timeout;
  // then the question failed in the server was still written, for a client that reads on to act on.
  it('fails a question asked after the input ended at once, not at the drain timeout, and does not send it', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    class LateAsker {
      @Tool({ description: 'Works a little, then asks the model.' })
      async late(@Ctx() ctx: ToolContext) {
        started();
        await released;
        const reply = await ctx.sample('Say something.');
        return `the model said: ${(reply.content as { text: string }).text}`;
      }
    }
    const { stdin, out, first, send, listener } = await serve([LateAsker], 3_000);
    send({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'late', arguments: {} } });
    await running;
    stdin.end();
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const answer = await first((m) => m.id === 'call');
    expect(answer.result).toEqual({
      content: [{ type: 'text', text: 'The client did not answer the sampling request: the client closed its input (stdin) before answering, so no answer can arrive.' }],
      isError: true,
    });
    await listener.close();
    expect(out.filter((m) => m.method === 'sampling/createMessage')).toEqual([]);
  });

  it("keeps a client request and the server's question with the same id apart", async () => {
    const { stdin, out, first, send, listener } = await serve([AskingTools]);
    send({ jsonrpc: '2.0', id: 0, method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const zero = await first((m) => m.method === 'sampling/createMessage');
    expect(zero.id).toBe(0);
    send({ jsonrpc: '2.0', id: 'second', method: 'tools/call', params: { name: 'ask', arguments: {} } });
    const one = await first((m) => m.method === 'sampling/createMessage' && m.id !== 0);
    send({ jsonrpc: '2.0', id: 0, result: MODEL_SAID_HI });
    expect((await first((m) => m.id === 0 && !('method' in m))).result).toEqual({ content: [{ type: 'text', text: 'the model said: hi' }] });
    stdin.end();
    expect((await first((m) => m.id === 'second')).result).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('closed its input') }] });
    await listener.close();
    expect(out.filter((m) => m.id === one.id && !('method' in m))).toEqual([]);
  });
});

describe("StdioTransport: the server's questions and the end of the input", () => {
  // The SDK matches an answer by Number(id), so "0" answers question 0; the transport kept the
  // question open all the same, and the end of stdin then made up a second answer for it.
  it('forgets a question the client answered with its id as a string: the end of the input makes up no answer for it', async () => {
    const { stdin, transport, delivered, endInput } = await openInputTransport();
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 1, method: 'roots/list', params: {} } as JSONRPCMessage);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: '0', result: MODEL_SAID_HI })}\n`);
    await endInput();
    // The client's answer to 0, then the stand-in error for 1, the one question left open.
    expect(delivered).toEqual([
      { jsonrpc: '2.0', id: '0', result: MODEL_SAID_HI },
      { jsonrpc: '2.0', id: 1, error: { code: -32000, message: expect.stringContaining('closed its input') } },
    ]);
    await transport.close();
  });

  // Number('') and Number(' ') are 0 for the SDK too; the transport kept such ids apart and left question 0 open.
  it.each(['', ' ', '\t'])('forgets question 0 when the client answers it with id %j, as the SDK matches it (Number(id))', async (id) => {
    const { stdin, transport, delivered, endInput } = await openInputTransport();
    await transport.send({ jsonrpc: '2.0', id: 0, method: 'sampling/createMessage', params: {} } as JSONRPCMessage);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: MODEL_SAID_HI })}\n`);
    await endInput();
    expect(delivered).toEqual([{ jsonrpc: '2.0', id, result: MODEL_SAID_HI }]);
    await transport.close();
  });

  // Every id that is not a number was keyed as NaN: one answer closed all such questions.
  it('keeps questions whose ids are strings that are not numbers apart', async () => {
    const { stdin, transport, delivered, endInput } = await openInputTransport();
    await transport.send({ jsonrpc: '2.0', id: 'q-a', method: 'roots/list', params: {} } as JSONRPCMessage);
    await transport.send({ jsonrpc: '2.0', id: 'q-b', method: 'roots/list', params: {} } as JSONRPCMessage);
    stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 'q-a', result: { roots: [] } })}\n`);
    await endInput();
    expect(delivered).toEqual([
      { jsonrpc: '2.0', id: 'q-a', result: { roots: [] } },
      { jsonrpc: '2.0', id: 'q-b', error: { code: -32000, message: expect.stringContaining('closed its input') } },
    ]);
    await transport.close();
  });
});
