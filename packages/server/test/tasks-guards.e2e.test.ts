import 'reflect-metadata';
import { Ctx, Scoped, Tool, UseGuards, type GuardClass, type MemberAccess, type ToolContext } from '@toolwright/core';
import { createApp, defineExtension, MemoryTaskStore, tasks, type App } from '@toolwright/server';
import { createTaskClient, createTestClient } from '@toolwright/server/testing';
import { brokenGuard } from './fixtures/brokenGuard';
import { clientsWithFailingLoggers } from './fixtures/clientsWithFailingLoggers';
import { failingOnceLogger } from './fixtures/failingOnceLogger';
import { Lease } from './fixtures/Lease';
import { waitFor } from './fixtures/waitFor';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A task tool's guards decide before any task is made: a caller they refuse gets exactly the
 * answer for a tool the app does not serve (no task handle, nothing stored), in both task
 * modes; a caller they let through gets a task that runs. They decide once per request, within
 * the same time as for a plain call: the run in the request that creates the task (or a plain
 * call of a `task: 'optional'` tool) takes their verdict; a later request of the task (the
 * `tasks/update` that brings an answer) is checked again, and so is any other run an extension
 * starts (a second `next()`, or one after it answered): those go the way of a plain call. A
 * caller they refused stays refused for the whole request; a decision that fails for another
 * reason answers the generic internal error of a failing call, and is logged.
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
  // A guard slower than the app's guardTimeoutMs (20 ms) and well within the tools' timeoutMs (5 s).
  const slowButFine = async (_access: MemberAccess) => {
    await new Promise((resolve) => setTimeout(resolve, 80));
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
    app = await createApp({ name: 'slow', version: '1', tools: [Slow], guardTimeoutMs: 20, extensions: [tasks({ store, ttlMs: 60_000, logger: silent })], logger });
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

describe('guards of task tools and an extension that runs the call more than once', () => {
  const decided: string[] = [];
  let revoked = false;
  const unlessRevoked = (access: MemberAccess) => {
    decided.push(access.name);
    return !revoked;
  };
  const ran: string[] = [];
  class Work {
    @UseGuards(unlessRevoked)
    @Tool({ description: 'A guarded tool that is never a task.', timeoutMs: 600 })
    async plain() {
      ran.push('plain');
      await sleep(350);
      return 'plain done';
    }

    @UseGuards(unlessRevoked)
    @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional', timeoutMs: 600 })
    async optional() {
      ran.push('optional');
      await sleep(350);
      return 'optional done';
    }
  }
  /** Runs the call, then once more (a retry-on-flake extension, say), answering with the second run. */
  const twice = defineExtension({
    id: 'com.example/twice',
    aroundToolCall: async (_call, _ctx, next) => {
      await next();
      return next();
    },
  });
  /** Answers at once and runs the call a little later (a background run). */
  const later: Promise<string>[] = [];
  const deferred = defineExtension({
    id: 'com.example/deferred',
    aroundToolCall: async (_call, _ctx, next) => {
      later.push(sleep(50).then(() => next().then(textOf, (error: Error) => error.message)));
      return { content: [{ type: 'text', text: 'accepted' }] };
    },
  });
  beforeEach(() => {
    decided.length = 0;
    ran.length = 0;
    later.length = 0;
    revoked = false;
  });

  it.each(['plain', 'optional'])("'%s': a second next() is a run of its own: its guards decide again and it gets the whole timeoutMs", async (name) => {
    const app = await createApp({ name: 'twice', version: '1', tools: [Work], logger: silent, extensions: [twice, tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name, arguments: {} }))).toBe(`${name} done`);
      expect(decided).toEqual([name, name]);
      expect(ran).toEqual([name, name]);
    } finally {
      await client.close();
    }
  });

  it.each(['plain', 'optional'])("'%s': a run started after the extension answered decides again: a guard revoked meanwhile refuses it", async (name) => {
    const app = await createApp({ name: 'deferred', version: '1', tools: [Work], logger: silent, extensions: [deferred, tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name, arguments: {} }))).toBe('accepted');
      revoked = true;
      expect(await later[0]).toMatch(new RegExp(`^Unknown tool '${name}'`));
      expect(ran).toEqual([]);
      expect(decided).toEqual(name === 'plain' ? [name] : [name, name]);
    } finally {
      await client.close();
    }
  });
});

describe('guards of task tools and an extension that retries a refused call', () => {
  const decided: string[] = [];
  // Refuses the first check of each tool (a flaky backend), lets later ones through.
  const flaky = (access: MemberAccess) => {
    decided.push(access.name);
    return decided.filter((name) => name === access.name).length > 1;
  };
  class Work {
    @UseGuards(flaky)
    @Tool({ description: 'A guarded tool that is never a task.' })
    plain() {
      return 'plain done';
    }

    @UseGuards(flaky)
    @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional' })
    optional() {
      return 'optional done';
    }
  }
  /** Runs the call once more when it fails. */
  const retry = defineExtension({
    id: 'com.example/retry',
    aroundToolCall: async (_call, _ctx, next) => next().catch(() => next()),
  });

  it("'optional': the retry's next() is refused too, without the guards deciding again", async () => {
    decided.length = 0;
    const app = await createApp({ name: 'retry', version: '1', tools: [Work], logger: silent, extensions: [retry, tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      const answer = await client.callTool({ name: 'optional', arguments: {} }).then(textOf, (error: Error) => `error: ${error.message}`);
      expect(answer).toMatch(/^error: .*Unknown tool 'optional'/);
      expect(decided).toEqual(['optional']);
    } finally {
      await client.close();
    }
  });

  it("'plain' (never a task): the retry is a run of its own, and its guards decide again", async () => {
    decided.length = 0;
    const app = await createApp({ name: 'retry', version: '1', tools: [Work], logger: silent, extensions: [retry, tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name: 'plain', arguments: {} }))).toBe('plain done');
      expect(decided).toEqual(['plain', 'plain']);
    } finally {
      await client.close();
    }
  });
});

describe("guards of task tools and an extension's own time before it runs the call", () => {
  const allow = () => true;
  class Work {
    @UseGuards(allow)
    @Tool({ description: 'A guarded tool that is never a task.', timeoutMs: 500 })
    async plain() {
      await sleep(250);
      return 'plain done';
    }

    @UseGuards(allow)
    @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional', timeoutMs: 500 })
    async optional() {
      await sleep(250);
      return 'optional done';
    }
  }
  /** Checks something slow (a quota service, say) before it runs the call. */
  const slowCheck = defineExtension({
    id: 'com.example/slow-check',
    aroundToolCall: async (_call, _ctx, next) => {
      await sleep(400);
      return next();
    },
  });

  it.each(['plain', 'optional'])("'%s': does not count against the tool's timeoutMs (only the guards' own time does)", async (name) => {
    const app = await createApp({ name: 'budget', version: '1', tools: [Work], logger: silent, extensions: [slowCheck, tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name, arguments: {} }))).toBe(`${name} done`);
    } finally {
      await client.close();
    }
  });
});

describe('guards of task tools and app.inFlight', () => {
  it.each(['plain', 'optional'])("'%s': one guarded call counts once while it runs, and none once it answered", async (name) => {
    let release: () => void = () => undefined;
    let running: () => void = () => undefined;
    const started = new Promise<void>((resolve) => (running = resolve));
    const hold = async () => {
      running();
      await new Promise<void>((resolve) => (release = resolve));
      return 'done';
    };
    const allow = () => true;
    class Gated {
      @UseGuards(allow)
      @Tool({ description: 'A guarded tool that is never a task.' })
      plain() {
        return hold();
      }

      @UseGuards(allow)
      @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional' })
      optional() {
        return hold();
      }
    }
    const app = await createApp({ name: 'in-flight', version: '1', tools: [Gated], logger: silent, extensions: [tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      const called = client.callTool({ name, arguments: {} });
      await started;
      const during = app.inFlight;
      release();
      expect(textOf(await called)).toBe('done');
      expect(during).toBe(1);
      expect(app.inFlight).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe('guards of task tools whose decision itself fails', () => {
  // A guard that throws is a refusal, logged; a logger that throws as it logs that fails the decision itself.
  const broken = brokenGuard;
  class Broken {
    @UseGuards(broken)
    @Tool({ description: 'A guarded tool that is never a task.' })
    plain() {
      return 'plain done';
    }

    @UseGuards(broken)
    @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional' })
    optional() {
      return 'optional done';
    }

    @Tool({ description: 'An unguarded tool.' })
    ping() {
      return 'pong';
    }
  }
  const failingOnce = failingOnceLogger;
  const answerOf = (client: { callTool: (params: { name: string; arguments: Record<string, unknown> }) => Promise<unknown> }, name: string) =>
    client.callTool({ name, arguments: {} }).then(
      (result) => `result: ${textOf(result)}${(result as { isError?: boolean }).isError ? ' (isError)' : ''}`,
      (error: Error & { code?: number }) => `error ${error.code}: ${error.message}`,
    );

  it.each(['plain', 'optional'])("'%s' with extensions: answers the generic internal error of a failing call, logs the failure, and keeps serving", async (name) => {
    const { lines, logger } = failingOnce();
    const app = await createApp({ name: 'broken', version: '1', tools: [Broken], logger, extensions: [tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(await answerOf(client, name)).toBe(`result: Tool '${name}' failed with an internal error. The server log has the details. (isError)`);
      expect(lines).toEqual([`the guards of tool '${name}' failed to decide (not a refusal); the caller got an internal error log sink down at 10.0.0.9`]);
      expect(await answerOf(client, 'ping')).toBe('result: pong');
    } finally {
      await client.close();
    }
  });

  it.each(['legacy', 'modern'] as const)('%s, without extensions: a guarded tool answers the same, and a logger that always throws changes nothing on the wire', async (era) => {
    const { lines, client, other, close } = await clientsWithFailingLoggers([Broken], era);
    try {
      expect(await answerOf(client, 'plain')).toBe("result: Tool 'plain' failed with an internal error. The server log has the details. (isError)");
      expect(lines).toEqual(["the guards of tool 'plain' failed to decide (not a refusal); the caller got an internal error log sink down at 10.0.0.9"]);
      expect(await answerOf(other, 'plain')).toBe("result: Tool 'plain' failed with an internal error. The server log has the details. (isError)");
      expect(await answerOf(other, 'ping')).toBe('result: pong');
    } finally {
      await close();
    }
  });
});

let slowGuardMs = 0;
/** How many LeaseGuard decisions have settled. */
let guardsSettled = 0;
@Scoped('request')
class LeaseGuard implements GuardClass {
  constructor(private readonly lease: Lease) {}
  async canActivate(_access: MemberAccess) {
    try {
      if (slowGuardMs > 0) await sleep(slowGuardMs);
      return this.lease.id > 0;
    } finally {
      guardsSettled++;
    }
  }
}

let gate: () => void = () => undefined;
let gated = new Promise<void>((resolve) => (gate = resolve));
const newGate = () => (gated = new Promise<void>((resolve) => (gate = resolve)));

class Held {
  @UseGuards(LeaseGuard)
  @Tool({ description: 'Holds until the test lets it go, always as a task.', task: 'required', timeoutMs: 500 })
  async hold() {
    await gated;
    return 'held';
  }

  @UseGuards(LeaseGuard)
  @Tool({ description: 'A guarded tool that may run as a task.', task: 'optional' })
  maybe() {
    return 'maybe';
  }
}

describe('a @Scoped guard of a task tool: the container it opened is released when no call takes it', () => {
  beforeEach(() => {
    Lease.disposed = [];
    slowGuardMs = 0;
    newGate();
  });

  it('when the tasks extension refuses the call as too busy (maxRunning.perCaller), and nothing stays in flight', async () => {
    const store = new MemoryTaskStore();
    const app = await createApp({ name: 'busy', version: '1', tools: [Held], logger: silent, extensions: [tasks({ store, logger: silent, maxRunning: { perCaller: 1 } })] });
    const client = createTaskClient(app, { clientInfo: { name: 'c', version: '1' } });
    const first = await client.call('hold');
    expect(first.resultType).toBe('task');
    const before = Lease.made; // the first call's Lease; the refused call's is the next
    const second = await client.call('hold');
    expect(second).toMatchObject({ resultType: 'complete', result: { isError: true } });
    await waitFor(() => Lease.disposed.includes(before + 1));
    expect(Lease.disposed).toContain(before + 1); // the refused call's Lease, released while the first call still runs
    gate();
    await waitFor(() => app.inFlight === 0);
    expect(app.inFlight).toBe(0);
    // The first call's Lease, once its run ended.
    await waitFor(() => Lease.disposed.includes(before));
    expect(Lease.disposed).toContain(before);
  });

  it("when a 'required' task tool is called by a client without the tasks extension", async () => {
    const app = await createApp({ name: 'undeclared', version: '1', tools: [Held], logger: silent, extensions: [tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      const made = Lease.made;
      await expect(client.callTool({ name: 'hold', arguments: {} })).rejects.toThrow(/tasks extension/);
      await waitFor(() => Lease.disposed.includes(made + 1));
      expect(Lease.disposed).toEqual([made + 1]);
      expect(app.inFlight).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('when the task is queued (the request never runs the call)', async () => {
    const store = new MemoryTaskStore();
    const app = await createApp({ name: 'queue', version: '1', tools: [Held], logger: silent, extensions: [tasks({ store, logger: silent, queue: true, worker: false })] });
    const client = createTaskClient(app);
    const made = Lease.made;
    expect((await client.call('hold')).resultType).toBe('task');
    await waitFor(() => Lease.disposed.includes(made + 1));
    expect(Lease.disposed).toEqual([made + 1]);
    expect(app.inFlight).toBe(0);
  });

  it("when the guard is slower than the tool's timeoutMs: refused at the deadline, released once the guard settles", async () => {
    slowGuardMs = 800;
    const app = await createApp({ name: 'slow-scoped', version: '1', tools: [Held], logger: silent, extensions: [tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = createTaskClient(app);
    const made = Lease.made;
    const settled = guardsSettled;
    await expect(client.call('hold')).rejects.toThrow(/Unknown tool 'hold'/);
    // Refused at the tool's deadline (500 ms), while the guard (800 ms) still runs.
    expect(guardsSettled).toBe(settled);
    await waitFor(() => Lease.disposed.includes(made + 1));
    expect(Lease.disposed).toEqual([made + 1]);
  });
});

describe("a @Scoped guard of a task: 'optional' tool cancelled while it decides", () => {
  it('ends the wait, releases the container once the guard settles, and leaves nothing in flight', async () => {
    Lease.disposed = [];
    slowGuardMs = 150;
    const app = await createApp({ name: 'cancel', version: '1', tools: [Held], logger: silent, extensions: [tasks({ store: new MemoryTaskStore(), logger: silent })] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      const made = Lease.made;
      const abort = new AbortController();
      const called = client.callTool({ name: 'maybe', arguments: {} }, { signal: abort.signal });
      // The guard is deciding: its Lease was made for it.
      await waitFor(() => Lease.made > made, 'the guard to start deciding');
      abort.abort('moved on');
      await expect(called).rejects.toThrow();
      expect(Lease.disposed).toEqual([]);
      await waitFor(() => Lease.disposed.length > 0);
      expect(Lease.disposed).toEqual([made + 1]);
      await waitFor(() => app.inFlight === 0);
      expect(app.inFlight).toBe(0);
      slowGuardMs = 0;
      expect(textOf(await client.callTool({ name: 'maybe', arguments: {} }))).toBe('maybe');
    } finally {
      slowGuardMs = 0;
      await client.close();
    }
  });
});

describe('guards of a queued task', () => {
  it('decide once for the request that queues it and once more for the worker that runs it', async () => {
    const checked: string[] = [];
    const counting = (access: MemberAccess) => {
      checked.push(access.name);
      return true;
    };
    class Queued {
      @UseGuards(counting)
      @Tool({ description: 'A queued task.', task: 'required' })
      report() {
        return 'report ready';
      }
    }
    const app = await createApp({
      name: 'worker',
      version: '1',
      tools: [Queued],
      logger: silent,
      extensions: [tasks({ store: new MemoryTaskStore(), logger: silent, queue: true, worker: { pollMs: 20 } })],
    });
    await app.start();
    try {
      const client = createTaskClient(app);
      const done = await client.run('report');
      expect(done).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'report ready' }] } });
      expect(checked).toEqual(['report', 'report']);
    } finally {
      await app.stop();
    }
  });
});

describe('guards of a task tool of a mounted app, called through its parent', () => {
  it("decide once, within the tool's timeoutMs (not the child's shorter guardTimeoutMs), and refuse an intruder as an unknown tool", async () => {
    const checked: string[] = [];
    const slowCheck = async (access: MemberAccess) => {
      checked.push(`${access.name} ${access.envelope.clientInfo?.name ?? '?'}`);
      await sleep(80);
      return access.envelope.clientInfo?.name !== 'intruder';
    };
    class Child {
      @UseGuards(slowCheck)
      @Tool({ description: 'A mounted task tool.', task: 'required', timeoutMs: 5_000 })
      payroll() {
        return 'payroll ready';
      }
    }
    const child = await createApp({ name: 'child', version: '1', tools: [Child], logger: silent, guardTimeoutMs: 20 });
    const store = new MemoryTaskStore();
    const parent = await createApp({ name: 'parent', version: '1', tools: [], logger: silent, extensions: [tasks({ store, logger: silent })] });
    await parent.mount({ app: child, namespace: 'hr' });
    const member = createTaskClient(parent, { clientInfo: { name: 'accountant', version: '1' } });
    expect(await member.run('hr_payroll')).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'payroll ready' }] } });
    expect(checked).toEqual(['hr_payroll accountant']);
    const intruder = createTaskClient(parent, { clientInfo: { name: 'intruder', version: '1' } });
    await expect(intruder.call('hr_payroll')).rejects.toThrow(/Unknown tool 'hr_payroll'/);
    expect(store.size).toBe(1);
  });
});
