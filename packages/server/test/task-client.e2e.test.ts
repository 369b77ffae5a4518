import 'reflect-metadata';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, tasks, type App } from '@toolwright/server';
import { createTaskClient, type TaskState } from '@toolwright/server/testing';

/**
 * The test kit's task client (createTaskClient): calls a task tool, polls it (seeing its
 * progress), answers its input requests and cancels it, against the app in process and over
 * real HTTP.
 */
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;

class Exports {
  @Tool({ description: 'Exports rows in batches, asking before it overwrites.', task: 'required' })
  async export(@Param('rows') rows: number, @Ctx() ctx: ToolContext) {
    for (let done = 1; done <= 2; done++) await ctx.progress(done, 2, `batch ${done} of 2`);
    const answer = await ctx.elicit(`Overwrite the export of ${rows} rows?`, CONFIRM as never, { key: 'overwrite' });
    return answer.action === 'accept' ? `exported ${rows} rows` : 'left as it was';
  }

  @Tool({ description: 'Runs until cancelled.', task: true })
  async wait(@Ctx() ctx: ToolContext) {
    await ctx.progress(0, 1, 'waiting');
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('stopped'))));
  }

  @Tool({ description: 'A plain tool.' })
  ping() {
    return 'pong';
  }
}

describe('createTaskClient', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'exports', version: '1', tools: [Exports], extensions: [tasks()], logger: { debug() {}, info() {}, warn() {}, error() {} } });
  });

  it('runs a task to its end in process: progress seen, input request answered, result returned', async () => {
    const client = createTaskClient(app);
    const statuses: string[] = [];
    const asked: string[] = [];
    const done = await client.run(
      'export',
      { rows: 12 },
      {
        onStatus: (task) => statuses.push(`${task.status}${task.statusMessage ? `: ${task.statusMessage}` : ''}`),
        answer: ({ key, method, params }) => {
          asked.push(`${key} ${method} ${String(params?.message)}`);
          return { action: 'accept', content: { confirm: true } };
        },
      },
    );
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'exported 12 rows' }] } });
    expect(asked).toEqual(['overwrite elicitation/create Overwrite the export of 12 rows?']);
    expect(statuses).toContain('input_required: batch 2 of 2');
    expect(statuses.at(-1)).toMatch(/^completed/);
  });

  it('cancels a task, answers a plain tool at once, and throws JSON-RPC errors with their code', async () => {
    const client = createTaskClient(app);
    const handle = await client.call('wait');
    expect(handle.resultType).toBe('task');
    const { taskId } = (handle as { task: TaskState }).task;
    await client.poll(taskId, { until: (t) => t.statusMessage === 'waiting' });
    await client.cancel(taskId);
    expect(await client.poll(taskId)).toMatchObject({ status: 'cancelled' });
    expect(await client.call('ping')).toMatchObject({ resultType: 'complete', result: { content: [{ text: 'pong' }] } });
    await expect(client.get('__proto__')).rejects.toMatchObject({ code: -32602 });
    await expect(client.run('export', { rows: 1 })).rejects.toThrow(/asks for input \(overwrite\): pass run\(\.\.\., \{ answer \}\)/);
  });

  it('drives a task over real HTTP', async () => {
    const listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false });
    try {
      const client = createTaskClient({ url: listener.url });
      const done = await client.run('export', { rows: 3 }, { answer: () => ({ action: 'decline' }) });
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ text: 'left as it was' }] } });
    } finally {
      await listener.close();
    }
  });

  it('says what the server answered when that is no JSON-RPC message: a refused token (401) gets its status and error, not "undefined"', async () => {
    const verifyToken = (token: string) => (token === 'good' ? { token, clientId: 'c', scopes: [], extra: { sub: 'u' } } : undefined);
    const listener = await app.listen({ transport: 'http', port: 0, host: '127.0.0.1', logLevel: 'silent', exitOnSignal: false, auth: { verifyToken } });
    try {
      await expect(createTaskClient({ url: listener.url }, { headers: { authorization: 'Bearer bad' } }).call('ping')).rejects.toThrow(
        'tools/call: the server answered HTTP 401 without a JSON-RPC message ({"error":"invalid_token","error_description":"The access token is invalid."}).',
      );
      expect(await createTaskClient({ url: listener.url }, { headers: { authorization: 'Bearer good' } }).call('ping')).toMatchObject({ resultType: 'complete' });
    } finally {
      await listener.close();
    }
  });
});
