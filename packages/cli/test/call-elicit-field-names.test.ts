import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright call` answering a form whose field names are members of every JavaScript object
 * (`constructor`, `toString`, `__proto__`): each answer reaches the server as an own field, or
 * is refused before anything is sent. The server runs in this process, over HTTP on 127.0.0.1.
 */
// JSON.parse makes `__proto__` an own property, as a form read from the wire has it.
const FORM = JSON.parse('{"type":"object","properties":{"constructor":{"type":"boolean"},"toString":{"type":"string"},"__proto__":{"type":"string"}}}');

class Forms {
  @Tool({ description: 'Asks for a form with awkward field names and returns what it got.' })
  async ask(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Fill it in', FORM as never);
    const content = answer.action === 'accept' ? answer.content : {};
    return JSON.stringify({ action: answer.action, content, own: Object.keys(content) });
  }
}

const cli = async (...argv: string[]) => {
  const io = memoryIo(tmpdir());
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('toolwright call answers form fields named after Object.prototype members', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    const app = await createApp({ name: 'forms', version: '1', tools: [Forms], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it('sends constructor and toString as own fields, in the types the form asks for', async () => {
    const result = await cli('call', listener.url, 'ask', '--field', 'constructor=true', '--field', 'toString=hi');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ action: 'accept', content: { constructor: true, toString: 'hi' }, own: ['constructor', 'toString'] });
  });

  it('refuses --field __proto__=x before calling, instead of dropping it', async () => {
    const result = await cli('call', listener.url, 'ask', '--field', '__proto__=x', '--field', 'toString=hi');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain("--field '__proto__=x': a form field named __proto__ cannot be answered, because the MCP SDK drops that key from every elicitation result.");
    expect(result.stderr).not.toContain('The server asks');
  });

  it.each([['"x"'], ['["x"]']])('refuses an --elicit answer with a __proto__ field of %s before calling', async (value) => {
    const result = await cli('call', listener.url, 'ask', '--elicit', `{"__proto__":${value},"toString":"hi"}`);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--elicit answer #1: a form field named __proto__ cannot be answered');
    expect(result.stderr).not.toContain('The server asks');
  });
});
