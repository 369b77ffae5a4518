import 'reflect-metadata';
import { Ctx, Tool, UseGuards, type MemberAccess, type ToolContext } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, type App } from '@toolwright/server';
import { createTaskClient, createTestClient } from '@toolwright/server/testing';

/**
 * A task tool's guards decide before any task is made: a caller they refuse gets exactly the
 * answer for a tool the app does not serve (no task handle, nothing stored), in both task
 * modes; a caller they let through gets a task that runs. They decide once per request, within
 * the same time as for a plain call: the run in the request that creates the task (or a plain
 * call of a `task: 'optional'` tool) takes their verdict; a later request of the task (the
 * `tasks/update` that brings an answer) is checked again.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const checked: string[] = [];
const notIntruder = (access: MemberAccess) => {
  checked.push(`${access.name} ${access.envelope.clientInfo?.name ?? '?'}`);
  return access.envelope.clientInfo?.name !== 'intruder';
};

class Reports {
  @UseGuards(notIntruder)
  @Tool({ description: 'Builds the payroll report.', task: 'required' })
  payroll() {
    return 'payroll ready';
  }

  @UseGuards(notIntruder)
  @Tool({ description: 'Builds the audit report, as a task when the client can.', task: 'optional' })
  audit() {
    return 'audit ready';
  }

  @UseGuards(notIntruder)
  @Tool({ description: 'Sends the payslips once someone confirms.', task: 'required' })
  async payslips(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Send the payslips now?', { type: 'object', properties: { confirm: { type: 'boolean' } } });
    return answer.action === 'accept' ? 'payslips sent' : 'payslips kept';
  }
}

describe('guards of task tools', () => {
  const store = new MemoryTaskStore();
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks({ store, ttlMs: 60_000, logger: silent })], logger: silent });
  });
  beforeEach(() => {
    checked.length = 0;
  });

  it.each(['payroll', 'audit'])("refuse '%s' to an intruder as a tool the app does not serve, deciding once, and store no task", async (name) => {
    const intruder = createTaskClient(app, { clientInfo: { name: 'intruder', version: '1' } });
    const unknown = await intruder.call('no_such_report').then(
      () => 'answered',
      (error: Error) => error.message,
    );
    const refused = await intruder.call(name).then(
      (answer) => JSON.stringify(answer),
      (error: Error) => error.message,
    );
    expect(unknown).toMatch(/Unknown tool 'no_such_report'/);
    expect(refused).toBe(unknown.replace('no_such_report', name));
    expect(store.size).toBe(0);
    expect(checked).toEqual([`${name} intruder`]);
  });

  it('run as tasks for a caller the guards let through, deciding once for the request that creates the task', async () => {
    const member = createTaskClient(app, { clientInfo: { name: 'accountant', version: '1' } });
    const done = await member.run('payroll');
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'payroll ready' }] } });
    expect(checked).toEqual(['payroll accountant']);
  });

  it('decide again for the tasks/update that brings the answer a task waited for (a request of its own)', async () => {
    const member = createTaskClient(app, { clientInfo: { name: 'accountant', version: '1' } });
    const done = await member.run('payslips', {}, { answer: () => ({ action: 'accept', content: { confirm: true } }) });
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'payslips sent' }] } });
    expect(checked).toEqual(['payslips accountant', 'payslips accountant']);
  });

  it("decide once for a plain call of a task: 'optional' tool (no task)", async () => {
    const client = await createTestClient(app, { era: 'modern', clientInfo: { name: 'auditor', version: '1' } });
    try {
      expect(textOf(await client.callTool({ name: 'audit', arguments: {} }))).toBe('audit ready');
      expect(checked).toEqual(['audit auditor']);
    } finally {
      await client.close();
    }
  });
});

describe("guards of task tools decide within the tool's timeoutMs, as for a plain call", () => {
  // A guard slower than the app's guardTimeoutMs (100 ms) and well within the tools' timeoutMs (5 s).
  const slowButFine = async (_access: MemberAccess) => {
    await new Promise((resolve) => setTimeout(resolve, 300));
    return true;
  };
  let runs = 0;
  class Slow {
    @UseGuards(slowButFine)
    @Tool({ description: 'Builds the payroll report, always as a task.', task: 'required', timeoutMs: 5_000 })
    payroll() {
      runs++;
      return 'payroll ready';
    }

    @UseGuards(slowButFine)
    @Tool({ description: 'Builds the audit report, as a task when the client can.', task: 'optional', timeoutMs: 5_000 })
    audit() {
      return 'audit ready';
    }
  }
  const errors: string[] = [];
  const logger = { ...silent, error: (message: string) => void errors.push(message) };
  const store = new MemoryTaskStore();
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'slow', version: '1', tools: [Slow], guardTimeoutMs: 100, extensions: [tasks({ store, ttlMs: 60_000, logger: silent })], logger });
  });
  beforeEach(() => {
    runs = 0;
    errors.length = 0;
  });

  it('serve a plain call, logging no refusal', async () => {
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name: 'audit', arguments: {} }))).toBe('audit ready');
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('give a client of the tasks extension a task', async () => {
    const client = createTaskClient(app);
    const answer = await client.call('payroll');
    expect(answer.resultType).toBe('task');
    expect(store.size).toBe(1);
    const taskId = answer.resultType === 'task' ? answer.task.taskId : '';
    expect(await client.poll(taskId)).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'payroll ready' }] } });
    expect(runs).toBe(1);
    expect(errors).toEqual([]);
  });

  it("refuse a 'required' task tool to a client without the tasks extension, running nothing", async () => {
    const client = await createTestClient(app, { era: 'modern' });
    try {
      await expect(client.callTool({ name: 'payroll', arguments: {} })).rejects.toThrow(/runs only as a task/);
      expect(runs).toBe(0);
      expect(errors).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
