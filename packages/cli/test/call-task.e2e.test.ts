import 'reflect-metadata';
import { tmpdir } from 'node:os';
import { runCli } from '@toolwright/cli';
import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { createApp, tasks } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { memoryIo } from './helpers/memoryIo';

/**
 * `toolwright call` on a 2026-07-28 HTTP server that answers with tasks: it polls the task,
 * prints its status messages, answers its input requests from --field / --decline, prints the
 * result, and reports a failed task with exit code 3. The server runs in this process.
 */
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;

class Exports {
  @Tool({ description: 'Exports rows in batches, asking before it overwrites.', task: 'required' })
  async export(@Param('rows') rows: number, @Ctx() ctx: ToolContext) {
    await ctx.progress(1, 2, 'batch 1 of 2');
    await new Promise((r) => setTimeout(r, 30));
    await ctx.progress(2, 2, 'batch 2 of 2');
    const answer = await ctx.elicit('Overwrite the last export?', CONFIRM as never, { key: 'overwrite' });
    return answer.action === 'accept' && (answer.content as { confirm?: boolean }).confirm ? `exported ${rows} rows` : 'left as it was';
  }

  @Tool({ description: 'Asks where to send the export; a plain call, never a task.' })
  async destination(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Send it where?', { type: 'object', properties: { to: { type: 'string' } }, required: ['to'] } as never);
    return answer.action === 'accept' ? `sending to ${(answer.content as { to: string }).to}` : 'kept here';
  }

  @Tool({ description: 'Fails as a tool.', task: true })
  broken() {
    throw new ToolError('the export broke: try fewer rows');
  }
}

const cli = async (...argv: string[]) => {
  const io = memoryIo(tmpdir());
  const code = await runCli(argv, io);
  return { code, stdout: io.output(), stderr: io.errors() };
};

describe('toolwright call on a task tool', () => {
  let listener: HttpListener;
  beforeAll(async () => {
    const app = await createApp({ name: 'exports', version: '1', tools: [Exports], extensions: [tasks({ pollIntervalMs: 20 })], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
  });
  afterAll(() => listener.close());

  it('polls the task, prints its progress, answers its question and prints the result', async () => {
    const result = await cli('call', listener.url, 'export', '--args', '{"rows":5}', '--field', 'confirm=true');
    expect(result.stdout.trim()).toBe('exported 5 rows');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Task [\w-]{22} started; polling it/);
    expect(result.stderr).toContain('batch 2 of 2');
    expect(result.stderr).toContain('The server asks: Overwrite the last export?');
  });

  it('answers with --decline, and exits 1 for a task whose tool returned an error', async () => {
    expect((await cli('call', listener.url, 'export', '--args', '{"rows":5}', '--decline')).stdout.trim()).toBe('left as it was');
    const broken = await cli('call', listener.url, 'broken');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain('the export broke: try fewer rows');
  });

  it('answers the questions of a plain call on the same server round by round (2026-07-28 input_required), then prints its result', async () => {
    // Regression: on a server that serves tasks, a plain call's input_required answer was printed as a result and crashed the CLI (exit 70).
    const result = await cli('call', listener.url, 'destination', '--field', 'to=archive');
    expect(result).toMatchObject({ code: 0, stdout: 'sending to archive\n' });
    expect(result.stderr).toContain('The server asks: Send it where?');
    expect(result.stderr).not.toContain('started; polling');
  });

  it('calls it as a plain call on the 2025-11-25 era (the server serves task tools synchronously there)', async () => {
    const result = await cli('call', listener.url, 'export', '--args', '{"rows":2}', '--field', 'confirm=true', '--protocol', '2025-11-25');
    expect(result.stdout.trim()).toBe('exported 2 rows');
    expect(result.stderr).not.toContain('started; polling');
  });
});
