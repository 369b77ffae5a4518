import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, defineExtension, MemoryTaskStore, tasks, type StoredTask } from '@toolwright/server';
import { createTaskClient, createTestClient } from '@toolwright/server/testing';
import { codeOf } from './fixtures/codeOf';
import { waitFor } from './fixtures/waitFor';

/**
 * `app.inFlight` and `app.drain()` count a tool call from the moment the server accepts it until
 * its answer, or its task's outcome, is settled: an extension that holds a call before it runs
 * it, a run an extension starts once it answered, and a task whose outcome the store has not
 * taken yet all keep the drain waiting; a task whose tool is gone by the time it runs fails, and
 * lets the drain finish.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';

class Quick {
  @Tool({ description: 'Answers at once.' })
  quick() {
    return 'quick done';
  }
}

class Report {
  @Tool({ description: 'Answers at once, as a task.', task: 'required' })
  report() {
    return 'report done';
  }
}

/** A gate a test opens by hand. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

describe('app.inFlight counts a call an extension accepted and has not started yet', () => {
  it.each(['legacy', 'modern'] as const)('%s: the drain waits while the extension holds the call, then for the call', async (era) => {
    const held = gate();
    let holding = false;
    const holdFirst = defineExtension({
      id: 'dev.toolwright/hold-first',
      async aroundToolCall(_call, _ctx, next) {
        holding = true;
        await held.opened;
        return next();
      },
    });
    const app = await createApp({ name: 'accepted', version: '1', tools: [Quick], logger: silent, extensions: [holdFirst] });
    const client = await createTestClient(app, { era });
    try {
      const called = client.callTool({ name: 'quick', arguments: {} });
      if (era === 'modern') await waitFor(() => holding, 'the extension to hold the call');
      else await waitFor(() => app.inFlight === 0, 'nothing to be counted');
      const during = app.inFlight;
      const drained = await app.drain(50);
      held.open();
      expect(textOf(await called)).toBe('quick done');
      // The 2025 era has no aroundToolCall: the call runs at once and nothing holds it.
      expect({ during, drained }).toEqual(era === 'modern' ? { during: 1, drained: false } : { during: 0, drained: true });
      expect(await app.drain(1000)).toBe(true);
      expect(app.inFlight).toBe(0);
    } finally {
      await client.close();
    }
  });
});

describe("app.inFlight counts a task's run until the store has its outcome", () => {
  it('the drain waits for the outcome write, which then lands', async () => {
    const written = gate();
    let writing = false;
    class SlowOutcomes extends MemoryTaskStore {
      override async update(taskId: string, change: (task: StoredTask) => StoredTask | undefined): Promise<StoredTask | undefined> {
        const current = await this.get(taskId);
        if (current && change(current)?.status === 'completed') {
          writing = true;
          await written.opened;
        }
        return super.update(taskId, change);
      }
    }
    const store = new SlowOutcomes();
    const app = await createApp({ name: 'outcome', version: '1', tools: [Report], logger: silent, extensions: [tasks({ store, logger: silent })] });
    const client = createTaskClient(app);
    const handle = await client.call('report');
    if (handle.resultType !== 'task') throw new Error(`expected a task handle, got ${JSON.stringify(handle)}`);
    await waitFor(() => writing, 'the outcome write to begin');
    const during = app.inFlight;
    const drained = await app.drain(50);
    written.open();
    expect({ during, drained }).toEqual({ during: 1, drained: false });
    expect(await app.drain(1000)).toBe(true);
    expect((await store.get(handle.task.taskId))?.status).toBe('completed');
    expect(app.inFlight).toBe(0);
  });
});

describe('app.inFlight counts a run an extension starts once it answered', () => {
  it('the drain waits for a run started after the call was answered and nothing else of it was pending', async () => {
    const held = gate();
    let running = false;
    class Slow {
      @Tool({ description: 'Waits until the test lets it go.' })
      async slow() {
        running = true;
        await held.opened;
        return 'slow done';
      }
    }
    let late: Promise<unknown> = Promise.resolve();
    const ackThenRun = defineExtension({
      id: 'dev.toolwright/ack-then-run',
      async aroundToolCall(_call, _ctx, next) {
        // A background job: acknowledged at once, run once the answer went out.
        setTimeout(() => (late = next().catch(() => undefined)), 0);
        return { content: [{ type: 'text', text: 'accepted' }] };
      },
    });
    const app = await createApp({ name: 'late', version: '1', tools: [Slow], logger: silent, extensions: [ackThenRun] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      expect(textOf(await client.callTool({ name: 'slow', arguments: {} }))).toBe('accepted');
      await waitFor(() => running, 'the late run to start');
      const during = app.inFlight;
      const drained = await app.drain(50);
      held.open();
      expect({ during, drained }).toEqual({ during: 1, drained: false });
      expect(await app.drain(1000)).toBe(true);
      expect(textOf(await late)).toBe('slow done');
      expect(app.inFlight).toBe(0);
    } finally {
      held.open();
      await client.close();
    }
  });
});

describe('a call whose tool is gone by the time its run starts', () => {
  it("rejects the extension's next() (it never throws), and the client gets the unknown tool's error", async () => {
    const held = gate();
    let holding = false;
    let threwAtOnce = false;
    const holdFirst = defineExtension({
      id: 'dev.toolwright/hold-first',
      async aroundToolCall(_call, _ctx, next) {
        holding = true;
        await held.opened;
        let answer: Promise<Record<string, unknown>>;
        try {
          answer = next();
        } catch (error) {
          // An extension that chains on next() (`next().catch(...)`) would let this escape it.
          threwAtOnce = true;
          throw error;
        }
        return answer;
      },
    });
    const app = await createApp({ name: 'gone', version: '1', tools: [Quick], logger: silent, extensions: [holdFirst] });
    const client = await createTestClient(app, { era: 'modern' });
    try {
      const called = codeOf(client.callTool({ name: 'quick', arguments: {} }));
      await waitFor(() => holding, 'the extension to hold the call');
      app.tools.disable('quick');
      held.open();
      expect(await called).toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'quick'") });
      expect(threwAtOnce).toBe(false);
      expect(await app.drain(1000)).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('as a task: fails the task as for an unknown tool, and the drain finishes', async () => {
    const held = gate();
    let holding = false;
    const holdFirst = defineExtension({
      id: 'dev.toolwright/hold-first',
      async aroundToolCall(_call, _ctx, next) {
        holding = true;
        await held.opened;
        return next();
      },
    });
    const store = new MemoryTaskStore();
    const app = await createApp({ name: 'gone', version: '1', tools: [Report], logger: silent, extensions: [holdFirst, tasks({ store, logger: silent })] });
    const client = createTaskClient(app);
    const called = client.call('report');
    await waitFor(() => holding, 'the first extension to hold the call');
    // Disabled while the call is held: by the time the tasks extension runs it, the app no longer serves the tool.
    app.tools.disable('report');
    held.open();
    const handle = await called;
    if (handle.resultType !== 'task') throw new Error(`expected a task handle, got ${JSON.stringify(handle)}`);
    expect(await app.drain(1000)).toBe(true);
    expect(app.inFlight).toBe(0);
    expect(await store.get(handle.task.taskId)).toMatchObject({ status: 'failed', error: { code: -32602, message: expect.stringContaining("Unknown tool 'report'") } });
  });
});
