/**
 * What a span keeps of a refused call: the refusal's summary, never the argument values the
 * argument problems quote ("n: must be a number (got string ...)"), which the app records only
 * when it opts in (`recordArguments`), and then with secret-looking keys redacted.
 * A real tracer provider (in memory) and a real client.
 */
import { Param, Prompt, Tool } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient, toolError } from '@toolwright/server/testing';
import { useOtelRecorder } from './fixtures/useOtelRecorder';

class Account {
  @Tool({ description: 'Signs in.' })
  login(@Param('user') user: string, @Param('password') password: string, @Param('mode', { enum: ['fast', 'safe'] }) mode: string) {
    return `${user} ${password.length} ${mode}`;
  }

  @Prompt({ description: 'Greets.' })
  greet(@Param('times') times: number) {
    return `hello x${times}`;
  }
}

describe('a span of a call refused for its arguments', () => {
  const { spans } = useOtelRecorder();

  it('records the refusal, not the values of the arguments it quotes (tool result and JSON-RPC error alike)', async () => {
    for (const telemetry of [{}, { recordArguments: true }]) {
      spans.reset();
      const app = await createApp({ name: 'accounts', version: '1', tools: [Account], telemetry });
      const client = await createTestClient(app);
      try {
        // The model still reads every problem, with what it sent.
        expect(await toolError(client.callTool({ name: 'login', arguments: { user: 'ada', password: 31415926, mode: 'SECRET-MODE' } }))).toContain('(got number 31415926)');
        await expect(client.getPrompt({ name: 'greet', arguments: { times: 'SECRET-TIMES' } })).rejects.toMatchObject({ code: -32602 });
      } finally {
        await client.close();
      }
      const finished = spans.getFinishedSpans();
      const call = finished.find((s) => s.name === 'tools/call login')!;
      const prompt = finished.find((s) => s.name === 'prompts/get greet')!;
      expect(call.status).toEqual({ code: 2, message: "Invalid arguments for tool 'login':" });
      expect(call.attributes['error.type']).toBe('tool_error');
      expect(prompt.status).toEqual({ code: 2, message: "Invalid arguments for prompt 'greet':" });
      // A password is not recorded even by the apps that record arguments (redacted by its key); the other values only by those.
      expect(JSON.stringify(finished.map((s) => [s.name, s.status, s.attributes]))).not.toContain('31415926');
      expect(JSON.stringify(finished.map((s) => s.status))).not.toContain('SECRET');
      if (!('recordArguments' in telemetry)) expect(JSON.stringify(finished.map((s) => s.attributes))).not.toContain('SECRET');
    }
  });

  it("keeps a tool's own one-line error message", async () => {
    class Failing {
      @Tool({ description: 'Fails.' })
      fail(): never {
        throw new Error('the forecast service is down');
      }
    }
    const app = await createApp({ name: 'failing', version: '1', tools: [Failing], logger: { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined } });
    const client = await createTestClient(app);
    try {
      const text = await toolError(client.callTool({ name: 'fail', arguments: {} }));
      const span = spans.getFinishedSpans().find((s) => s.name === 'tools/call fail')!;
      expect(span.status).toEqual({ code: 2, message: text });
    } finally {
      await client.close();
    }
  });
});
