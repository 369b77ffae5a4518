import 'reflect-metadata';
import { Tool, UseGuards, type MemberAccess } from '@toolwright/core';
import { createApp, MemoryTaskStore, tasks, type App } from '@toolwright/server';
import { createTaskClient } from '@toolwright/server/testing';

/**
 * A task tool's guards decide before any task is made: a caller they refuse gets exactly the
 * answer for a tool the app does not serve (no task handle, nothing stored), in both task
 * modes; a caller they let through gets a task that runs, guarded again when it runs.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
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
}

describe('guards of task tools', () => {
  const store = new MemoryTaskStore();
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks({ store, ttlMs: 60_000, logger: silent })], logger: silent });
  });

  it.each(['payroll', 'audit'])("refuse '%s' to an intruder as a tool the app does not serve, and store no task", async (name) => {
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
  });

  it('run as tasks for a caller the guards let through, checked again when the task runs', async () => {
    checked.length = 0;
    const member = createTaskClient(app, { clientInfo: { name: 'accountant', version: '1' } });
    const done = await member.run('payroll');
    expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'payroll ready' }] } });
    expect(checked).toEqual(['payroll accountant', 'payroll accountant']);
  });
});
