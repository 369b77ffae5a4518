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
    await sleep(150);
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
    // No clock here: the guard never decides, so a call that waited for it would end at the client's own
    // 5 s timeout, with the SDK's request-timeout error instead of this -32602.
    await expect(client.callTool({ name: 'stuck', arguments: {} }, { timeout: 5_000 })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'stuck'") });
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
    // No clock here: a list that waited for the guard (it never decides) would fail at the client's own 5 s timeout.
    const { tools } = await client.listTools(undefined, { timeout: 5_000 });
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
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('refuses within the default guard timeout (10 s), well inside the SDK client’s 60 s, for calls and lists in both eras', async () => {
    await Promise.all(
      eras.map(async (era) => {
        const { logger, lines } = recordingLogger();
        const app = await createApp({ name: 'hostile-default', version: '1', tools: [BrieflyStuck, ForeverStuck, Hostile], logger });
        const client = await createTestClient(app, { era });
        const started = Date.now();
        let settled = false;
        const answered = Promise.all([
          client.listTools(undefined, { timeout: 20_000 }),
          expect(client.callTool({ name: 'blocked', arguments: {} }, { timeout: 20_000 })).rejects.toMatchObject({ code: -32602 }),
        ]).finally(() => (settled = true));
        // The clock is jest's: it moves only here, a second at a time, until both are answered.
        while (!settled && Date.now() - started < 20_000) await jest.advanceTimersByTimeAsync(1_000);
        const [listed] = await answered;
        expect(Date.now() - started).toBeGreaterThanOrEqual(10_000);
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
  });
});

class PatientlyStuck {
  @UseGuards(NeverDecides)
  @Tool({ description: 'Guarded by a guard that never decides, with a long timeout of its own.', timeoutMs: 30_000 })
  patient() {
    return 'ran';
  }
}

describe.each(eras)("the app's guardTimeoutMs, %s era", (era) => {
  it('refuses a call whose guard never settles within it, lists without the member within it, and keeps serving', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'hostile-guard-timeout', version: '1', tools: [ForeverStuck, PatientlyStuck, Hostile], logger, guardTimeoutMs: 60 });
    const client = await createTestClient(app, { era });
    const started = Date.now();
    await expect(client.callTool({ name: 'blocked', arguments: {} }, { timeout: 20_000 })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining("Unknown tool 'blocked'") });
    // Not before the deadline (a lower bound: a loaded machine only adds to it). That it was this deadline, not the
    // default 10 s, the logged message below says; a call that waited for the guard would fail at the client's 20 s timeout.
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
    // A list waits at most guardTimeoutMs, even for a member whose own timeout is longer: the log below names
    // 60 ms for 'patient', and a list that waited out its 30 s would fail at the client's 20 s timeout.
    const { tools } = await client.listTools(undefined, { timeout: 20_000 });
    expect(tools.map((t) => t.name).sort()).toEqual(['deaf', 'expires', 'heeds', 'late', 'ok', 'wrapped']);
    const [refused, ...unlisted] = lines.filter((l) => l.level === 'error').map((l) => l.message);
    expect(refused).toBe(
      "guard class NeverDecides of tool 'blocked' did not decide within 60 ms; the caller is refused. Make it settle sooner, or give the tool a larger timeoutMs (guards run within it; without one, within the app's guardTimeoutMs, 60 ms, which also bounds a list).",
    );
    expect(unlisted.sort()).toEqual([
      expect.stringMatching(/^guard class NeverDecides of tool 'blocked' did not decide within 60 ms/),
      expect.stringMatching(/^guard class NeverDecides of tool 'patient' did not decide within 60 ms/),
    ]);
    expect(app.inFlight).toBe(0);
    expect(textOf(await client.callTool({ name: 'ok', arguments: {} }))).toMatch(/^ok with lease \d+$/);
    await client.close();
  });

  it('is refused at build when it is not a positive number of milliseconds, naming the option and the fix', async () => {
    for (const bad of [0, -1, NaN, Infinity, '200']) {
      await expect(createApp({ name: 'bad-guard-timeout', version: '1', tools: [ForeverStuck], guardTimeoutMs: bad as number })).rejects.toThrow(
        /^Toolwright: `guardTimeoutMs` is .+, not a positive number of milliseconds\. Give the milliseconds guards may take to decide: `guardTimeoutMs: 2_000`, or leave it out for the default 10000 ms\.$/,
      );
    }
  });
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

  @Tool({ description: 'Logs a small line with data, then one whose data is large.' })
  detail(@Ctx() ctx: ToolContext, @Param('size') size: number) {
    ctx.log.info('small', { n: 1 });
    ctx.log.warning('large', { blob: 'z'.repeat(size) });
    return 'detailed';
  }

  @Tool({ description: 'Reports progress with a message of the given size.' })
  async chatter(@Ctx() ctx: ToolContext, @Param('size') size: number) {
    await ctx.progress(1, 2, 'p'.repeat(size));
    return 'chattered';
  }

  @Tool({ description: 'Logs many lines at once.' })
  flood(@Ctx() ctx: ToolContext, @Param('lines') lines: number, @Param('size') size: number) {
    for (let i = 0; i < lines; i++) ctx.log.info('y'.repeat(size));
    return 'flooded';
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

  const meta = era === 'modern' ? { _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } } : {};
  async function logClient(app: App, transport?: 'http') {
    const client = await createTestClient(app, { era, ...(transport && { transport }) });
    const messages: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params.data));
    if (era === 'legacy') await client.setLoggingLevel('debug');
    return { client, messages };
  }

  it('sends log lines with escape sequences as JSON text, megabytes cut to maxLogLength with a note, and a line whose data JSON cannot carry without that data', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger });
    const { client, messages } = await logClient(app, 'http');
    expect(textOf(await client.callTool({ name: 'shout', arguments: { size: 10_000_000 }, ...meta }))).toBe('shouted');
    await waitFor(() => messages.length === 3, 'the three log lines', { detail: () => JSON.stringify(messages).slice(0, 500) });
    const note = ' [this log line was cut: 10000014 characters of message and data, more than the 65536 this server sends]';
    const cut = `\u001b[2J\u001b]0;owned\u0007${'x'.repeat(65_535 - 14)}…${note}`;
    // Compared as a boolean: a failing toBe would print megabytes.
    expect({ length: (messages[0] as string).length, same: messages[0] === cut }).toEqual({ length: cut.length, same: true });
    expect(messages.slice(1)).toEqual(['circular data', 'bigint data']);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      "'shout' logged a line of 10000014 characters (message and data), more than maxLogLength (65536); the client got it cut, without its data. Log less, or raise the app's maxLogLength.",
      expect.stringMatching(/^'shout' logged data JSON cannot carry \(data\.self refers back/),
      expect.stringMatching(/^'shout' logged data JSON cannot carry \(data is a BigInt/),
    ]);
    expect(textOf(await client.callTool({ name: 'shout', arguments: { size: 1 }, ...meta }))).toBe('shouted');
    await client.close();
  }, 30_000);

  it("cuts a line whose data is over the app's maxLogLength, sent without its data, and keeps a small line's data", async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger, maxLogLength: 100 });
    const { client, messages } = await logClient(app);
    expect(textOf(await client.callTool({ name: 'detail', arguments: { size: 200 }, ...meta }))).toBe('detailed');
    await waitFor(() => messages.length === 2, 'the two log lines', { detail: () => JSON.stringify(messages) });
    expect(messages).toEqual([{ message: 'small', data: { n: 1 } }, 'large [this log line was cut: 216 characters of message and data, more than the 100 this server sends]']);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      expect.stringMatching(/^'detail' logged a line of 216 characters \(message and data\), more than maxLogLength \(100\)/),
    ]);
    expect(textOf(await client.callTool({ name: 'detail', arguments: { size: 1 }, ...meta }))).toBe('detailed');
    await waitFor(() => messages.length === 4, 'the next two log lines');
    expect(messages[3]).toEqual({ message: 'large', data: { blob: 'z' } });
    await client.close();
  });

  it('leaves out the lines of a flood while megabytes wait to be written, says how many once they are, and keeps serving', async () => {
    const { logger, lines } = recordingLogger();
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger });
    const { client, messages } = await logClient(app);
    expect(textOf(await client.callTool({ name: 'flood', arguments: { lines: 10_000, size: 1_000 }, ...meta }))).toBe('flooded');
    const note = await waitFor(() => messages.find((m) => typeof m === 'string' && m.startsWith('[')) as string | undefined, 'the note on the lines left out');
    const sent = messages.filter((m) => m !== note).length;
    expect(sent).toBeLessThan(10_000);
    expect(sent).toBeGreaterThanOrEqual(1_000);
    expect(note).toBe(`[${10_000 - sent} log lines were left out: the client did not take them as fast as they came]`);
    expect(lines.filter((l) => l.level === 'warn').map((l) => l.message)).toEqual([
      "'flood' logged faster than the client took the lines; lines were left out while 4194304 characters of them waited to be written",
    ]);
    messages.length = 0;
    expect(textOf(await client.callTool({ name: 'flood', arguments: { lines: 3, size: 10 }, ...meta }))).toBe('flooded');
    await waitFor(() => messages.length === 3, 'the three lines of a small call');
    await client.close();
  }, 30_000);

  it("cuts a progress message to the app's maxLogLength", async () => {
    const app = await createApp({ name: 'probes', version: '1', tools: [ContextProbes], logger: recordingLogger().logger, maxLogLength: 100 });
    const client = await createTestClient(app, { era });
    const seen: (string | undefined)[] = [];
    const result = await client.callTool({ name: 'chatter', arguments: { size: 1_000_000 } }, { onprogress: (p) => void seen.push(p.message) });
    expect(textOf(result)).toBe('chattered');
    expect(seen).toEqual([`${'p'.repeat(99)}…`]);
    await client.close();
  });

  it('refuses a maxLogLength that is not a positive integer at build, naming it', async () => {
    for (const bad of [0, -1, 1.5, NaN, Infinity]) {
      await expect(createApp({ name: 'probes', version: '1', tools: [ContextProbes], maxLogLength: bad })).rejects.toThrow(
        `Toolwright: maxLogLength must be a positive integer (characters), got ${bad}. The default is 65536.`,
      );
    }
  });
});
