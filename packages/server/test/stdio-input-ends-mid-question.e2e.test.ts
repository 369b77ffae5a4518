import 'reflect-metadata';
import { PassThrough, Writable } from 'node:stream';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';

class AskingTools {
  @Tool({ description: "Asks the client's model, then answers with what it said." })
  async ask(@Ctx() ctx: ToolContext) {
    const reply = await ctx.sample('Say something.');
    return `the model said: ${(reply.content as { text: string }).text}`;
  }
}

type Message = Record<string, unknown>;
const INIT = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: { sampling: {} }, clientInfo: { name: 'c', version: '1' } } };

describe('stdio: the client closes its input while a call waits for its answer', () => {
  // Once stdin ends no answer can arrive: the question used to wait for one until the drain
  // timeout passed, and the call was then abandoned without the tool ever learning why.
  it("fails the server's open questions at once, so the call answers and the listener closes without waiting for the drain timeout", async () => {
    const app = await createApp({ name: 'asking', version: '1.0.0', tools: [AskingTools] });
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
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const listener = await app.listen({ transport: 'stdio', stdin, stdout, exitOnClose: false, drainTimeoutMs: 20_000 });
      send(INIT);
      await first((m) => m.id === 'init');
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      send({ jsonrpc: '2.0', id: 'call', method: 'tools/call', params: { name: 'ask', arguments: {} } });
      const question = await first((m) => m.method === 'sampling/createMessage');
      const started = Date.now();
      stdin.end();
      const answer = await first((m) => m.id === 'call');
      expect(answer.result).toEqual({
        content: [{ type: 'text', text: 'The client did not answer the sampling request: the client closed its input (stdin) before answering, so no answer can arrive.' }],
        isError: true,
      });
      await listener.close();
      expect(Date.now() - started).toBeLessThan(5_000);
      // Nothing went out for the question: the error stands in for the answer inside the server.
      expect(out.filter((m) => m.id === question.id && !('method' in m))).toEqual([]);
    } finally {
      stderr.mockRestore();
    }
  });
});
