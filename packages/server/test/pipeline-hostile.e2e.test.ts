import { Ctx, Param, Scoped, Tool, UseGuards, UseMiddleware, type GuardClass, type ToolContext, type ToolLogger } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { normalizeErrors } from '@toolwright/server/middleware';
import { createTestClient, type TestEra } from '@toolwright/server/testing';
import { waitFor } from './fixtures/waitFor';

/**
 * Hostile members against the call pipeline, through a real SDK client in memory, in both
 * eras: a guard that never decides, a method that ignores its signal or stops with its
 * signal's reason, and odd values given to the call's context. None holds a request, a list
 * or per-call state forever, none is logged as a failure it is not, and the server keeps serving.
 */
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const eras: TestEra[] = ['legacy', 'modern'];
const never = () => new Promise<never>(() => undefined);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordingLogger() {
  const lines: { level: string; message: string; error?: unknown }[] = [];
  const at = (level: string) => (message: string, error?: unknown) => void lines.push({ level, message, error });
  const logger: ToolLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { logger, lines };
}

class NeverDecides implements GuardClass {
  canActivate() {
    return never();
  }
}

const events: string[] = [];

@Scoped('request')
class Lease {
  static made = 0;
  readonly id = ++Lease.made;
  dispose() {
    events.push(`lease ${this.id} disposed`);
  }
}

class BrieflyStuck {
  @UseGuards(NeverDecides)
  @Tool({ description: 'Guarded by a guard that never decides, within 100 ms.', timeoutMs: 100 })
  stuck() {
    return 'ran';
  }
}

class ForeverStuck {
  @UseGuards(NeverDecides)
  @Tool({ description: 'Guarded by a guard that never decides, with no timeout.' })
  blocked() {
    return 'ran';
  }
}

@Scoped('request')
class Hostile {
  constructor(private readonly lease: Lease) {}

  @Tool({ description: 'Works.' })
  ok() {
    return `ok with lease ${this.lease.id}`;
  }

  @Tool({ description: 'Ignores its signal and never ends.' })
  async deaf(@Ctx() ctx: ToolContext) {
    events.push(`deaf started with lease ${this.lease.id}`);
    void ctx;
    return never();
  }

  @Tool({ description: 'Ignores its signal past its timeout, reporting progress.', timeoutMs: 100 })
  async late(@Ctx() ctx: ToolContext) {
    await ctx.progress(1, 10);
    await sleep(300);
    await ctx.progress(2, 10);
    events.push('late sent its last progress');
    return 'late';
  }

  @Tool({ description: 'Stops with its signal reason once its call ends.' })
  async heeds(@Ctx() ctx: ToolContext) {
    events.push('heeds started');
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
  }

  @UseMiddleware(normalizeErrors())
  @Tool({ description: 'Stops with its signal reason once its call ends, inside middleware that logs what methods throw.' })
  async wrapped(@Ctx() ctx: ToolContext) {
    events.push('wrapped started');
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
  }

  @Tool({ description: 'Stops with its signal reason once its timeout passes.', timeoutMs: 100 })
  async expires(@Ctx() ctx: ToolContext) {
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
  }
}

describe.each(eras)('a guard that never decides, %s era', (era) => {
  let app: App;
  let lines: ReturnType<typeof recordingLogger>['lines'];
  beforeEach(async () => {
    const recorded = recordingLogger();
    lines = recorded.lines;
    app = await createApp({ name: 'hostile-pipeline', version: '1', tools: [BrieflyStuck, ForeverStuck, Hostile], logger: recorded.logger });
  });

  it("refuses the call within the member's timeoutMs, logging the guard's class, and leaves nothing in flight", async () => {
    const client = await createTestClient(app, { era });
    const started = Date.now();
    await expect(client.callTool({ name: 'stuck', arguments: {} }, { timeout: 5_000 })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'stuck'") });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([
      expect.stringMatching(/^guard class NeverDecides of tool 'stuck' did not decide within 100 ms; the caller is refused\. /),
    ]);
    expect(app.inFlight).toBe(0);
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toMatch(/^ok with lease \d+$/);
    await client.close();
  });

  it("answers tools/list within the member's timeoutMs, without the member whose guard has not decided", async () => {
    const listed = await createApp({ name: 'hostile-list', version: '1', tools: [BrieflyStuck, Hostile], logger: recordingLogger().logger });
    const client = await createTestClient(listed, { era });
    const started = Date.now();
    const { tools } = await client.listTools(undefined, { timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(tools.map((t) => t.name).sort()).toEqual(['deaf', 'expires', 'heeds', 'late', 'ok', 'wrapped']);
    await client.close();
  });

  it('ends the wait for the guard when the client cancels the call, and leaves nothing in flight or in the log', async () => {
    const client = await createTestClient(app, { era });
    const abort = new AbortController();
    const called = client.callTool({ name: 'blocked', arguments: {} }, { signal: abort.signal });
    await waitFor(() => app.inFlight === 1, 'the call to wait for its guard');
    abort.abort('the user moved on');
    await expect(called).rejects.toThrow();
    await waitFor(() => app.inFlight === 0, 'the call to end', { timeoutMs: 2_000 });
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toMatch(/^ok/);
    await client.close();
  });
});

describe('a guard that never decides, with no timeout anywhere', () => {
  it('refuses within the default guard timeout (10 s), well inside the SDK client’s 60 s, for calls and lists in both eras', async () => {
    await Promise.all(
      eras.map(async (era) => {
        const { logger, lines } = recordingLogger();
        const app = await createApp({ name: 'hostile-default', version: '1', tools: [BrieflyStuck, ForeverStuck, Hostile], logger });
        const client = await createTestClient(app, { era });
        const started = Date.now();
        const [listed] = await Promise.all([
          client.listTools(undefined, { timeout: 20_000 }),
          expect(client.callTool({ name: 'blocked', arguments: {} }, { timeout: 20_000 })).rejects.toMatchObject({ code: -32602 }),
        ]);
        expect(Date.now() - started).toBeLessThan(15_000);
        expect(listed.tools.map((t) => t.name).sort()).toEqual(['deaf', 'expires', 'heeds', 'late', 'ok', 'wrapped']);
        expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^guard class NeverDecides of tool 'blocked' did not decide within 10000 ms/),
            expect.stringMatching(/^guard class NeverDecides of tool 'stuck' did not decide within 100 ms/),
          ]),
        );
        expect(app.inFlight).toBe(0);
        await client.close();
      }),
    );
  }, 30_000);
});

describe.each(eras)('a method that outlives its call, %s era', (era) => {
  let app: App;
  let lines: ReturnType<typeof recordingLogger>['lines'];
  beforeEach(async () => {
    events.length = 0;
    const recorded = recordingLogger();
    lines = recorded.lines;
    app = await createApp({ name: 'hostile-methods', version: '1', tools: [Hostile], logger: recorded.logger });
  });

  it('ignoring its signal after a cancel: its request-scoped services are disposed, nothing stays in flight, and the server keeps serving', async () => {
    const client = await createTestClient(app, { era });
    const abort = new AbortController();
    const called = client.callTool({ name: 'deaf', arguments: {} }, { signal: abort.signal });
    const started = await waitFor(() => events.find((e) => e.startsWith('deaf started')), 'the method to start');
    const lease = /lease (\d+)/.exec(started)![1];
    abort.abort('the user moved on');
    await expect(called).rejects.toThrow();
    await waitFor(() => events.includes(`lease ${lease} disposed`), "the cancelled call's lease to be disposed", { timeoutMs: 2_000, detail: () => events.join('\n') });
    await waitFor(() => app.inFlight === 0, 'nothing in flight', { timeoutMs: 2_000 });
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toMatch(/^ok with lease \d+$/);
    expect(lines.filter((l) => l.level === 'error')).toEqual([]);
    await client.close();
  });

  it('sends no progress after its timeout answered the call', async () => {
    const client = await createTestClient(app, { era });
    const clientErrors: string[] = [];
    client.onerror = (error) => void clientErrors.push(error.message);
    const progress: number[] = [];
    const result = await client.callTool({ name: 'late', arguments: {} }, { onprogress: (p) => void progress.push(p.progress) });
    expect(result).toMatchObject({ isError: true, content: [{ text: "Tool 'late' timed out after 100 ms." }] });
    await waitFor(() => events.includes('late sent its last progress'), 'the method to go on past its timeout');
    await sleep(50);
    expect(progress).toEqual([1]);
    expect(clientErrors).toEqual([]);
    await client.close();
  });

  it('stopping with its signal reason after a cancel or a timeout is not logged as an error', async () => {
    const client = await createTestClient(app, { era });
    for (const name of ['heeds', 'wrapped']) {
      const abort = new AbortController();
      const called = client.callTool({ name, arguments: {} }, { signal: abort.signal });
      await waitFor(() => events.includes(`${name} started`), `${name} to start`);
      abort.abort('the user moved on');
      await expect(called).rejects.toThrow('the user moved on');
      await waitFor(() => app.inFlight === 0, `${name} to end`);
    }
    expect(await client.callTool({ name: 'expires', arguments: {} })).toMatchObject({ isError: true, content: [{ text: "Tool 'expires' timed out after 100 ms." }] });
    await waitFor(() => app.inFlight === 0, 'nothing in flight', { timeoutMs: 2_000 });
    await sleep(20);
    expect(lines.filter((l) => l.level === 'error').map((l) => l.message)).toEqual([]);
    await client.close();
  });
});

class ContextProbes {
  @Tool({ description: 'Reports odd progress values.' })
  async odd(@Ctx() ctx: ToolContext, @Param('case') which: string) {
    const values: Record<string, [number, number?]> = {
      nan: [NaN, 10],
      infinite: [Infinity],
      hugeTotal: [1, Number.MAX_VALUE],
      nanTotal: [1, NaN],
      infiniteTotal: [1, -Infinity],
    };
    const [progress, total] = values[which];
    await ctx.progress(progress, total);
    await ctx.progress(progress + 1, 1e300);
    return 'done';
  }

  @Tool({ description: 'Stores what it is given in the session, and reads it back.' })
  async keep(@Ctx() ctx: ToolContext, @Param('case') which: string) {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const values: Record<string, unknown> = { fn: () => 1, symbol: Symbol('s'), bigint: 1n, circular };
    if (!ctx.session) return 'no session';
    try {
      await ctx.session.set('k', values[which]);
    } catch (error) {
      return `refused: ${(error as Error).message}`;
    }
    return `kept: ${JSON.stringify(await ctx.session.get('k'))}`;
  }

  @Tool({ description: 'Logs hostile text to the client.' })
  shout(@Ctx() ctx: ToolContext, @Param('size') size: number) {
    ctx.log.info(`\u001b[2J\u001b]0;owned\u0007${'x'.repeat(size)}`);
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    ctx.log.info('circular data', circular);
    ctx.log.info('bigint data', 1n);
    return 'shouted';
  }
}

describe.each(eras)('the context API with hostile values, %s era', (era) => {
  it('never sends progress JSON cannot carry (NaN, ±Infinity), and keeps the call and the server going', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger });
    const client = await createTestClient(app, { era });
    const clientErrors: string[] = [];
    client.onerror = (error) => void clientErrors.push(error.message);
    const seen: Record<string, { progress: unknown; total?: unknown }[]> = {};
    for (const which of ['nan', 'infinite', 'hugeTotal', 'nanTotal', 'infiniteTotal']) {
      seen[which] = [];
      const result = await client.callTool({ name: 'odd', arguments: { case: which } }, { onprogress: (p) => void seen[which].push({ progress: p.progress, total: p.total }) });
      expect(textOf(result)).toBe('done');
    }
    for (const updates of Object.values(seen)) for (const { progress, total } of updates) expect([progress, total ?? 0].every((n) => typeof n === 'number' && Number.isFinite(n))).toBe(true);
    expect(seen.hugeTotal).toEqual([
      { progress: 1, total: Number.MAX_VALUE },
      { progress: 2, total: 1e300 },
    ]);
    expect(clientErrors).toEqual([]);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^'odd' reported progress NaN of 10; progress and total must be finite numbers/)]),
    );
    await client.close();
  });

  it('refuses session values JSON cannot carry when they are set, saying where, and stores what JSON drops as nothing', async () => {
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger: recordingLogger().logger });
    const client = await createTestClient(app, { era });
    const keep = async (which: string) => textOf(await client.callTool({ name: 'keep', arguments: { case: which } }));
    if (era === 'modern') {
      // A 2026-07-28 request has no session.
      expect(await keep('fn')).toBe('no session');
    } else {
      expect(await keep('fn')).toBe('kept: undefined');
      expect(await keep('symbol')).toBe('kept: undefined');
      expect(await keep('bigint')).toBe("refused: ctx.session.set('k') cannot store this value: value is a BigInt, which JSON cannot carry: return it as a string or a number.");
      expect(await keep('circular')).toMatch(/^refused: ctx\.session\.set\('k'\) cannot store this value: value\.self refers back to an object that contains it/);
    }
    await client.close();
  });

  it('sends log lines with escape sequences and megabytes as JSON text, and a line whose data JSON cannot carry without that data', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger });
    const client = await createTestClient(app, { era, transport: 'http' });
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params.data));
    if (era === 'legacy') await client.setLoggingLevel('debug');
    const meta = era === 'modern' ? { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } } : {};
    expect(textOf(await client.callTool({ name: 'shout', arguments: { size: 10_000_000 }, ...meta }))).toBe('shouted');
    await waitFor(() => messages.length === 3, 'the three log lines', { detail: () => JSON.stringify(messages).slice(0, 500) });
    expect(messages[0]).toBe(`\u001b[2J\u001b]0;owned\u0007${'x'.repeat(10_000_000)}`);
    expect(messages.slice(1)).toEqual(['circular data', 'bigint data']);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringMatching(/^'shout' logged data JSON cannot carry \(data\.self refers back/),
      expect.stringMatching(/^'shout' logged data JSON cannot carry \(data is a BigInt/),
    ]);
    expect(textOf(await client.callTool({ name: 'shout', arguments: { size: 1 }, ...meta }))).toBe('shouted');
    await client.close();
  }, 30_000);
});
