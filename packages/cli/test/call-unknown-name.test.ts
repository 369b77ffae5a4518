import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { Param, Prompt, Tool } from '@toolwright/core';
import { runCli } from '@toolwright/cli';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright call` with a name the server does not serve: the server's own answer is written for a
 * model ("call tools/list"); a person is told the name is not served, the nearest one and what is.
 * A refusal for another reason (bad arguments of a served tool) keeps the server's message.
 */
class Greetings {
  @Tool({ description: 'Greets.' })
  greet(@Param('name') name: string) {
    return `Hello, ${name}!`;
  }

  @Tool({ description: 'Says goodbye.' })
  farewell() {
    return 'Bye';
  }

  @Prompt({ description: 'A welcome.' })
  welcome() {
    return 'Welcome!';
  }
}

describe('toolwright call, a name the server does not serve', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'greetings', version: '1.0.0', tools: [Greetings], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    listener = await app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent' });
  });
  afterAll(() => listener.close());

  it.each(['2025-11-25', '2026-07-28'])('a misspelt tool (%s): the nearest name and the tools it serves', async (protocol) => {
    const io = memoryIo(tmpdir());
    const code = await runCli(['call', listener.url, 'gret', '--args', '{"name":"Ada"}', '--protocol', protocol], io);
    expect(code).not.toBe(0);
    expect(io.errors()).toContain("tools/call 'gret' failed: the server serves no tool 'gret'. Did you mean 'greet'? It serves 2 tools: greet, farewell.");
  });

  it('a misspelt prompt: the same', async () => {
    const io = memoryIo(tmpdir());
    const code = await runCli(['call', listener.url, '--prompt', 'welcom'], io);
    expect(code).not.toBe(0);
    expect(io.errors()).toContain("prompts/get 'welcom' failed: the server serves no prompt 'welcom'. Did you mean 'welcome'? It serves 1 prompt: welcome.");
  });

  it("a served tool refused for its arguments keeps the server's message", async () => {
    const io = memoryIo(tmpdir());
    const code = await runCli(['call', listener.url, 'greet', '--args', '{"name":5}'], io);
    expect(code).not.toBe(0);
    expect(io.errors()).not.toContain('serves no tool');
    expect(io.errors()).toMatch(/name/);
  });
});
