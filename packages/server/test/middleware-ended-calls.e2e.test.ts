import 'reflect-metadata';
import { Ctx, Param, Tool, UseMiddleware, type ToolContext, type ToolLogger } from '@toolwright/core';
import { createApp, type UsedStateStore } from '@toolwright/server';
import { cache, rateLimit, timing, type CallTiming } from '@toolwright/server/middleware';
import { createTestClient, type TestEra } from '@toolwright/server/testing';
import { modernRequest } from './fixtures/modernRequest';
import { waitFor } from './fixtures/waitFor';

/**
 * The built-in middleware around calls that end without the method's result as their answer (a
 * cancel, a timeout, a 2026-07-28 round that asks the client something), and around the rounds
 * of one 2026-07-28 call: a cache keeps only what a client got as the call's answer, and a rate
 * limit counts a call once however many rounds it takes, in both eras alike.
 */
const eras: TestEra[] = ['legacy', 'modern'];
const quiet: ToolLogger = { debug() {}, info() {}, warn() {}, error() {} };
const textOf = (result: unknown) => (result as { content: { text?: string }[] }).content[0]?.text ?? '';
const nameForm = { type: 'object', properties: { name: { type: 'string' } } } as const;

describe.each(eras)('cache() and a call that ended first, %s era', (era) => {
  let runs = 0;
  const returned: string[] = [];
  class Stops {
    @UseMiddleware(cache({ ttlMs: 60_000 }))
    @Tool({ description: 'Stops early once its call has ended, as the guide shows.', annotations: { readOnlyHint: true }, timeoutMs: 300 })
    async scan(@Param('folder') folder: string, @Ctx() ctx: ToolContext) {
      const run = ++runs;
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      const partial = `cancelled after ${run} files of ${folder}`;
      returned.push(partial);
      return partial;
    }
  }

  it('keeps nothing a method returned after its timeout answered the call', async () => {
    runs = 0;
    returned.length = 0;
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Stops], logger: quiet });
    const client = await createTestClient(app, { era });
    expect(textOf(await client.callTool({ name: 'scan', arguments: { folder: 'a' } }))).toBe("Tool 'scan' timed out after 300 ms.");
    await waitFor(() => returned.length === 1, 'the method to return after its timeout');
    expect(textOf(await client.callTool({ name: 'scan', arguments: { folder: 'a' } }))).toBe("Tool 'scan' timed out after 300 ms.");
    expect(runs).toBe(2);
    await client.close();
  });

  it('keeps nothing a method returned after its client cancelled the call', async () => {
    runs = 0;
    returned.length = 0;
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Stops], logger: quiet });
    const client = await createTestClient(app, { era });
    const abort = new AbortController();
    const cancelled = client.callTool({ name: 'scan', arguments: { folder: 'b' } }, { signal: abort.signal });
    await waitFor(() => runs === 1, 'the method to start');
    abort.abort('the user moved on');
    await expect(cancelled).rejects.toThrow();
    await waitFor(() => returned.length === 1, 'the method to return after the cancel');
    expect(textOf(await client.callTool({ name: 'scan', arguments: { folder: 'b' } }))).toBe("Tool 'scan' timed out after 300 ms.");
    expect(runs).toBe(2);
    await client.close();
  });
});

describe.each(eras)('cache() and a method that catches the interrupt of its question, %s era', (era) => {
  it('asks the client and caches the answer, never the result of the round that asked', async () => {
    let runs = 0;
    class Greets {
      @UseMiddleware(cache({ ttlMs: 60_000 }))
      @Tool({ description: 'Greets by a name it asks for.', annotations: { readOnlyHint: true } })
      async greet(@Param('room') room: string, @Ctx() ctx: ToolContext) {
        runs++;
        try {
          const answer = await ctx.elicit(`Your name in ${room}?`, nameForm);
          return `hello ${answer.action === 'accept' ? String(answer.content.name) : 'nobody'}`;
        } catch {
          return 'no answer';
        }
      }
    }
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Greets], logger: quiet });
    let asked = 0;
    const client = await createTestClient(app, { era, elicitation: () => (asked++, { action: 'accept', content: { name: 'ada' } }) });
    expect(textOf(await client.callTool({ name: 'greet', arguments: { room: 'lab' } }))).toBe('hello ada');
    expect(asked).toBe(1);
    const ran = runs;
    // The answer is the cached one: the method does not run again.
    expect(textOf(await client.callTool({ name: 'greet', arguments: { room: 'lab' } }))).toBe('hello ada');
    expect(runs).toBe(ran);
    await client.close();
  });
});

describe.each(eras)('rateLimit() and a call that asks the client, %s era', (era) => {
  it('spends one token for the call, not one per round, and refuses the next call', async () => {
    class Books {
      @UseMiddleware(rateLimit({ capacity: 1, refillPerSecond: 0.001 }))
      @Tool({ description: 'Asks two things, one after the other, then books.' })
      async book(@Param('to') to: string, @Ctx() ctx: ToolContext) {
        const who = await ctx.elicit(`Who travels to ${to}?`, nameForm);
        const whom = await ctx.elicit(`Who pays for ${to}?`, nameForm);
        const name = (outcome: typeof who) => (outcome.action === 'accept' ? String(outcome.content.name) : 'nobody');
        return `booked ${to} for ${name(who)}, paid by ${name(whom)}`;
      }
    }
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Books], logger: quiet });
    let asked = 0;
    const client = await createTestClient(app, { era, elicitation: () => (asked++, { action: 'accept', content: { name: 'ada' } }) });
    const booked = await client.callTool({ name: 'book', arguments: { to: 'Oslo' } });
    expect(booked.isError).toBeFalsy();
    expect(textOf(booked)).toBe('booked Oslo for ada, paid by ada');
    expect(asked).toBe(2);
    const refused = await client.callTool({ name: 'book', arguments: { to: 'Oslo' } });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toMatch(/^Rate limit reached for tool 'book'/);
    expect(asked).toBe(2);
    await client.close();
  });
});

describe('rateLimit() and a 2026-07-28 retry that brings no answer', () => {
  it('counts it as a call of its own: a state echoed without an answer is no way around the limit', async () => {
    let runs = 0;
    class Costly {
      @UseMiddleware(rateLimit({ capacity: 2, refillPerSecond: 0.001 }))
      @Tool({ description: 'Does costly work, then asks.' })
      async report(@Param('year') year: string, @Ctx() ctx: ToolContext) {
        runs++;
        const answer = await ctx.elicit(`Send the ${year} report to whom?`, nameForm);
        return answer.action;
      }
    }
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Costly], logger: quiet });
    const send = (params: Record<string, unknown>) => modernRequest((request) => app.fetch(request), 'tools/call', { name: 'report', ...params }, { capabilities: { elicitation: { form: {} } } });
    const first = await send({ arguments: { year: '2026' } });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const bare = await send({ arguments: { year: '2026' }, requestState: first.requestState });
    expect(bare).toMatchObject({ resultType: 'input_required' });
    const refused = await send({ arguments: { year: '2026' }, requestState: bare.requestState });
    expect(refused).toMatchObject({ isError: true });
    expect(textOf(refused)).toMatch(/^Rate limit reached for tool 'report'/);
    expect(runs).toBe(2);
  });
});

describe('rateLimit() and a 2026-07-28 state taken by another instance', () => {
  // Two instances of one app (same name, same keys) behind one rate-limit store, as behind a load balancer.
  const KEY = 'ended-calls-state-key-0123456789abcdef-0123456789';
  const instances = async (storeOf?: () => UsedStateStore) => {
    const served = { runs: 0 };
    class Costly {
      @UseMiddleware(rateLimit({ capacity: 1, refillPerSecond: 0.001 }))
      @Tool({ description: 'Does costly work, then asks whom to send it to.' })
      async report(@Param('year') year: string, @Ctx() ctx: ToolContext) {
        served.runs++;
        const answer = await ctx.elicit(`Send the ${year} report to whom?`, nameForm);
        return `sent to ${answer.action === 'accept' ? String(answer.content?.name) : 'nobody'}`;
      }
    }
    const make = () => createApp({ name: 'ended-calls', version: '1', tools: [Costly], logger: quiet, requestState: { keys: [KEY], ...(storeOf && { usedStates: storeOf() }) } });
    const apps = [await make(), await make()];
    const to = (i: number) => (params: Record<string, unknown>) =>
      modernRequest((request) => apps[i]!.fetch(request), 'tools/call', { name: 'report', ...params }, { capabilities: { elicitation: { form: {} } } });
    const first = await to(0)({ arguments: { year: '2026' } });
    expect(first).toMatchObject({ resultType: 'input_required' });
    const retry = { arguments: { year: '2026' }, requestState: first.requestState, inputResponses: { 'elicit-1': { action: 'accept', content: { name: 'ada' } } } };
    return { served, to, retry };
  };

  it('charges a state replayed to an instance with a usedStates store of its own: the replay is no free run', async () => {
    const { served, to, retry } = await instances();
    expect(textOf(await to(0)(retry))).toBe('sent to ada');
    await expect(to(0)(retry)).rejects.toMatchObject({ code: -32602 });
    const runs = served.runs;
    const replayed = await to(1)(retry);
    expect(replayed).toMatchObject({ isError: true });
    expect(textOf(replayed)).toMatch(/^Rate limit reached for tool 'report'/);
    expect(served.runs).toBe(runs);
  });

  /** A store of one process: each instance given its own remembers only what it claimed itself. */
  const ownStore = (): UsedStateStore => {
    const claimed = new Set<string>();
    return { claim: (id) => !claimed.has(id) && Boolean(claimed.add(id)) };
  };

  it('charges a state replayed to an instance with a store of its own that is not the default (one that does not say it is shared)', async () => {
    const { served, to, retry } = await instances(ownStore);
    expect(textOf(await to(0)(retry))).toBe('sent to ada');
    const replayed = await to(1)(retry);
    expect(textOf(replayed)).toMatch(/^Rate limit reached for tool 'report'/);
    expect(served.runs).toBe(2);
  });

  it('lets the retry go on free on the instance that issued the state, with a store of its own that is not the default', async () => {
    const { served, to, retry } = await instances(ownStore);
    expect(textOf(await to(0)(retry))).toBe('sent to ada');
    expect(served.runs).toBe(2);
  });

  it('lets the retry go on free on another instance when the instances share usedStates, and refuses its replay', async () => {
    const claimed = new Set<string>();
    const shared: UsedStateStore = {
      shared: true,
      claim(id: string) {
        if (claimed.has(id)) return false;
        claimed.add(id);
        return true;
      },
    };
    const { served, to, retry } = await instances(() => shared);
    expect(textOf(await to(1)(retry))).toBe('sent to ada');
    await expect(to(0)(retry)).rejects.toMatchObject({ code: -32602 });
    expect(served.runs).toBe(2);
  });
});

describe.each(eras)('timing() and calls that ended without the method’s answer, %s era', (era) => {
  it('reports a question for the client and a cancel as interrupted (info), a timeout as interrupted (warn)', async () => {
    const lines: string[] = [];
    const at = (level: string) => (message: string, data?: unknown) => void lines.push(`${level} ${message.replace(/ in [\d.]+ ms$/, '')} ${(data as CallTiming).outcome}`);
    const logger: ToolLogger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
    const started: string[] = [];
    class Timed {
      @Tool({ description: 'Asks a name.' })
      async ask(@Ctx() ctx: ToolContext) {
        return (await ctx.elicit('Your name?', nameForm)).action;
      }

      @Tool({ description: 'Waits for its signal, then stops with its reason.', timeoutMs: 200 })
      async wait(@Param('label') label: string, @Ctx() ctx: ToolContext) {
        started.push(label);
        await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
        ctx.signal.throwIfAborted();
      }
    }
    const app = await createApp({ name: 'ended-calls', version: '1', tools: [Timed], logger: quiet, middleware: [timing({ logger })] });
    const client = await createTestClient(app, { era, elicitation: { action: 'accept', content: { name: 'ada' } } });
    await client.callTool({ name: 'ask', arguments: {} });
    const abort = new AbortController();
    const cancelled = client.callTool({ name: 'wait', arguments: { label: 'cancel' } }, { signal: abort.signal });
    await waitFor(() => started.includes('cancel'), 'the method to start');
    abort.abort('the user moved on');
    await expect(cancelled).rejects.toThrow();
    await waitFor(() => lines.length === (era === 'modern' ? 3 : 2), 'the cancelled call to be reported');
    await client.callTool({ name: 'wait', arguments: { label: 'timeout' } });
    await waitFor(() => lines.length === (era === 'modern' ? 4 : 3), 'the timed-out call to be reported');
    const asked = era === 'modern' ? ["info tool 'ask' interrupted interrupted", "info tool 'ask' ok ok"] : ["info tool 'ask' ok ok"];
    expect(lines).toEqual([...asked, "info tool 'wait' interrupted interrupted", "warn tool 'wait' interrupted interrupted"]);
    await client.close();
  });
});
