import { AsyncLocalStorage } from 'node:async_hooks';
import { CallInterrupt, LOG_LEVELS, ToolwrightError, type AuthInfo, type ElicitationSchema, type LogLevel, type SamplingRequest, type ToolContext } from '@toolwright/core';
import type { Client, ClientCapabilities } from '../../sdk/proxyClient';
import { UpstreamTooLargeError } from './UpstreamTooLargeError';
import { LogBudget } from './LogBudget';
import { openUpstream, type UpstreamRelay } from './openUpstream';
import type { ProxyOptions } from './ProxyOptions';

/** One downstream call running on an upstream session: where the upstream's questions and log lines for it go. */
interface RunningCall {
  /** The downstream request it serves now (a parked call's retry takes it over). */
  ctx: ToolContext;
  /** The progress token of its upstream request (the proxy's own). */
  readonly token: string;
  readonly abort: AbortController;
  /** The questions the upstream asked during the call, in order, to ask again on a resume. */
  readonly asked: ((ctx: ToolContext) => Promise<unknown>)[];
  /** Ends the wait for the upstream's answer with a 2026-07-28 round's interrupt (set while it waits). */
  pause?: (interrupt: unknown) => void;
  /** The upstream's question waiting for the downstream client's answer in its next request. */
  waiting?: { resolve(value: unknown): void; reject(error: unknown): void };
  /** Settles when the question asked last of a 2026-07-28 client is answered: the next one waits for it. */
  turn?: Promise<void>;
}

/** Where a call waiting for its 2026-07-28 client's answer is kept until the retry. */
export interface Parking<R> {
  /** Keeps the call: `resume` continues it in the retry's context, `abandon` cancels it. False when it cannot be kept (it is then run again on the retry). */
  park(resume: (ctx: ToolContext) => Promise<R>, abandon: () => void): boolean;
}

const LEVELS = new Set<string>(LOG_LEVELS);
/** The call an upstream request arrives for, when the SDK client runs it inside the call (2026-07-28 `input_required` rounds). */
const running = new AsyncLocalStorage<RunningCall>();

/**
 * One session with the upstream, serving one downstream session (or one caller without a
 * session): the upstream's elicitation, sampling and roots requests and its log lines go to
 * the downstream call they belong to, through that call's context, so they reach only its
 * client, in its era. A 2025-era upstream sends them on the session, not on a call: they go
 * to the latest call still running on this session (a session serves one downstream client).
 */
export class UpstreamSession {
  private readonly calls = new Set<RunningCall>();
  private readonly byToken = new Map<string, RunningCall>();
  private sent = 0;
  private client: Client | undefined;
  private ended = false;
  /** Why the connection ends, when the proxy ended it for a message over maxMessageBytes. */
  private endedBy: UpstreamTooLargeError | undefined;
  /** The downstream caller this session speaks for now (read for each upstream HTTP request's credentials). */
  caller: AuthInfo | undefined;
  lastUsed = Date.now();
  private readonly logBudget: LogBudget;

  private constructor(
    label: string,
    logLinesPerSecond: number | undefined,
    private readonly onEnd: () => void,
  ) {
    this.logBudget = new LogBudget(label, logLinesPerSecond);
  }

  /** Opens a session with the upstream (`label` in messages) for `caller`, declaring `capabilities` (what the downstream client can answer). */
  static async open(options: ProxyOptions, label: string, capabilities: ClientCapabilities, caller: AuthInfo | undefined, onEnd: () => void): Promise<UpstreamSession> {
    const session = new UpstreamSession(label, options.maxLogLinesPerSecond, onEnd);
    session.caller = caller;
    const client = await openUpstream(options, capabilities, () => session.caller, session.relay());
    session.client = client;
    // A 2025-era upstream logs by session: send everything, and let each downstream client's own level filter it.
    if (client.getServerCapabilities()?.logging && !isModern(client)) await client.setLoggingLevel('debug').catch(() => undefined);
    return session;
  }

  get closed(): boolean {
    return this.ended;
  }

  /** Whether the upstream keeps nothing of this session between requests (it speaks 2026-07-28). */
  get stateless(): boolean {
    return this.client !== undefined && isModern(this.client);
  }

  /**
   * Runs `send` for the downstream call `ctx`: cancelled with it, its questions answered by its
   * client. When a 2026-07-28 client must answer a question of a 2025-era upstream in its next
   * request, `parking` (if given, and if it takes the call) keeps the upstream request running:
   * the retry resumes it with the answer instead of starting it again.
   */
  async run<R>(ctx: ToolContext, send: (client: Client, signal: AbortSignal, progressToken: string) => Promise<R>, parking?: Parking<R>): Promise<R> {
    if (this.ended || !this.client) throw new UpstreamClosedError();
    this.lastUsed = Date.now();
    const call: RunningCall = { ctx, token: `proxy-${++this.sent}`, abort: new AbortController(), asked: [] };
    this.calls.add(call);
    this.byToken.set(call.token, call);
    const outcome = running.run(call, () => send(this.client!, call.abort.signal, call.token));
    // Settled while parked, it is read on the resume (or never, when the call is abandoned).
    outcome.catch(() => undefined);
    return this.follow(call, outcome, this.stateless ? undefined : parking);
  }

  /** Waits for the upstream's answer to `call`, or parks the call when its client must answer a question first. */
  private async follow<R>(call: RunningCall, outcome: Promise<R>, parking: Parking<R> | undefined): Promise<R> {
    const { ctx } = call;
    const cancel = () => call.abort.abort(ctx.signal.reason);
    if (ctx.signal.aborted) cancel();
    else ctx.signal.addEventListener('abort', cancel, { once: true });
    let parked = false;
    try {
      const paused = new Promise<never>((_resolve, reject) => (call.pause = reject));
      paused.catch(() => undefined);
      return await Promise.race([outcome, paused]);
    } catch (error) {
      if (call.waiting && CallInterrupt.is(error)) {
        parked =
          parking?.park(
            (next) => this.resume(call, outcome, parking, next),
            () => this.abandon(call),
          ) === true;
        if (parked) throw error;
        // Not parked: the upstream attempt ends here; the client's retry runs it again with the answer.
        call.waiting.reject(error);
        call.waiting = undefined;
        call.abort.abort(new ToolwrightError('the client answers in its next request (a 2026-07-28 round); this attempt ends here'));
        throw error;
      }
      // The SDK reports an aborted request with its own error: say what ended it.
      const reason: unknown = call.abort.signal.reason;
      if (reason instanceof UpstreamClosedError || reason instanceof UpstreamTooLargeError) throw reason;
      // Not an answer of the upstream's (a JSON-RPC error or a result of the wrong shape) nor a cancellation: the session is
      // unusable (the upstream restarted and forgot it, the process died). The next call opens another.
      const code = (error as { code?: unknown })?.code;
      if (typeof code !== 'number' && code !== INVALID_RESULT && !ctx.signal.aborted) this.end();
      throw error;
    } finally {
      call.pause = undefined;
      ctx.signal.removeEventListener('abort', cancel);
      // Before the call's answer: the client hears of the lines dropped while it ran.
      this.noteDropped(call);
      if (!parked) {
        // A question that came as the call ended has no one to answer it now.
        call.waiting?.reject(new ToolwrightError('the call ended before its client could answer'));
        call.waiting = undefined;
        this.finish(call);
      }
      this.lastUsed = Date.now();
    }
  }

  /**
   * Continues a parked call in the client's retry `ctx`: its progress, log lines and questions go
   * to that request from now on. The questions the call asked are asked again in order, as a
   * rerun would ask them (so they keep their keys): the earlier ones are answered from the
   * round's state, the last one by the client's new answer, which goes to the waiting upstream.
   */
  private async resume<R>(call: RunningCall, outcome: Promise<R>, parking: Parking<R>, ctx: ToolContext): Promise<R> {
    call.ctx = ctx;
    const waiting = call.waiting!;
    call.waiting = undefined;
    let answer: unknown;
    try {
      const last = call.asked.length - 1;
      for (let i = 0; i < last; i++) {
        // An earlier question that failed failed for the upstream already: only its place in the round matters.
        await call.asked[i]!(ctx).catch((error: unknown) => {
          if (CallInterrupt.is(error)) throw error;
        });
      }
      answer = await call.asked[last]!(ctx);
    } catch (error) {
      if (
        CallInterrupt.is(error) &&
        parking.park(
          (next) => this.resume(call, outcome, parking, next),
          () => this.abandon(call),
        )
      ) {
        // This request did not answer (a duplicate of the call, say): the question stays open.
        call.waiting = waiting;
        throw error;
      }
      waiting.reject(error);
      return this.follow(call, outcome, parking);
    }
    waiting.resolve(answer);
    return this.follow(call, outcome, parking);
  }

  /** A parked call whose client did not come back: its upstream request is cancelled. */
  private abandon(call: RunningCall): void {
    call.waiting?.reject(new ToolwrightError('the client did not answer'));
    call.waiting = undefined;
    call.abort.abort(new ToolwrightError('the client did not answer the question of its 2026-07-28 round in time'));
    this.finish(call);
  }

  private finish(call: RunningCall): void {
    this.calls.delete(call);
    this.byToken.delete(call.token);
  }

  async close(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.client?.close().catch(() => undefined);
  }

  /** Gives up on the session after a failure: closed, and forgotten by the proxy. */
  private end(): void {
    if (this.ended) return;
    void this.close();
    this.onEnd();
  }

  private relay(): UpstreamRelay {
    return {
      elicit: (params) =>
        this.ask('elicitation', async (ctx) => {
          const message = typeof params.message === 'string' ? params.message : '';
          if (params.mode === 'url') {
            const url = typeof params.url === 'string' ? params.url : '';
            return { ...(await ctx.elicitUrl(message, url, typeof params.elicitationId === 'string' ? { elicitationId: params.elicitationId } : undefined)) };
          }
          return { ...(await ctx.elicit(message, params.requestedSchema as ElicitationSchema)) };
        }),
      sample: (params) => this.ask('sampling', async (ctx) => (await ctx.sample(params as unknown as SamplingRequest)) as unknown as Record<string, unknown>),
      listRoots: () => this.ask('roots', async (ctx) => ({ roots: await ctx.listRoots() })),
      notification: (method, params) => {
        if (method === 'notifications/progress') {
          const call = typeof params.progressToken === 'string' ? this.byToken.get(params.progressToken) : undefined;
          const { progress, total, message } = params;
          if (call && call.ctx.meta?.progressToken !== undefined && typeof progress === 'number') {
            void call.ctx.progress(progress, typeof total === 'number' ? total : undefined, typeof message === 'string' ? message : undefined);
          }
        } else if (method === 'notifications/message') {
          const call = this.target();
          const { level, logger, data } = params;
          if (!call || typeof level !== 'string' || !LEVELS.has(level) || !this.logBudget.take()) return;
          this.noteDropped(call);
          if (typeof data === 'string') call.ctx.log.log(level as LogLevel, data);
          else call.ctx.log.log(level as LogLevel, typeof logger === 'string' ? logger : 'upstream', data);
        }
      },
      tooLarge: (error) => {
        this.endedBy = error;
      },
      closed: () => {
        this.ended = true;
        for (const call of this.calls) call.abort.abort(this.endedBy ?? new UpstreamClosedError());
        this.onEnd();
      },
    };
  }

  /** Tells `call`'s client how many of the upstream's log lines were dropped since the last note, if any were. */
  private noteDropped(call: RunningCall): void {
    const note = this.logBudget.note();
    if (note !== undefined) call.ctx.log.warning(note);
  }

  /** The call an upstream request is for: the one the SDK runs it in, else the latest running on this session. */
  private target(): RunningCall | undefined {
    const inside = running.getStore();
    if (inside && this.calls.has(inside)) return inside;
    let last: RunningCall | undefined;
    for (const call of this.calls) last = call;
    return last;
  }

  /**
   * Asks the client of the call the question is for. A client without the capability is not
   * asked, and its call goes on: the upstream gets an error (it may have asked on its own,
   * e.g. for roots after connecting, not for this call). A 2026-07-28 client answers one
   * question per round: a question the upstream sends while another is open (both at once,
   * say) is asked once that one is answered, in the client's next round.
   */
  private async ask<T>(capability: 'elicitation' | 'sampling' | 'roots', question: (ctx: ToolContext) => Promise<T>): Promise<T> {
    const call = this.target();
    if (!call) throw new ToolwrightError('No call of this client is running, so there is no one to ask: the proxy answers questions only during a tools/call, prompts/get or resources/read.');
    if (!Object.hasOwn(call.ctx.clientCapabilities, capability)) throw new ToolwrightError(`The client does not support ${capability}.`);
    if (call.ctx.era !== 'modern') return question(call.ctx);
    const before = call.turn;
    let done!: () => void;
    call.turn = new Promise<void>((resolve) => (done = resolve));
    try {
      await before;
      if (!this.calls.has(call)) throw new ToolwrightError('the call ended before its client could answer');
      return await this.askInRound(call, question);
    } finally {
      done();
    }
  }

  /** Asks a 2026-07-28 client; its interrupt pauses the call until the client's next request answers. */
  private async askInRound<T>(call: RunningCall, question: (ctx: ToolContext) => Promise<T>): Promise<T> {
    // Asked again on a resume, in order, so each keeps its key in the client's round.
    call.asked.push(question);
    try {
      return await question(call.ctx);
    } catch (error) {
      // A 2026-07-28 downstream answers in a later round: the call pauses (parked, or ended to be run again).
      if (CallInterrupt.is(error) && call.pause) {
        const pause = call.pause;
        return new Promise<T>((resolve, reject) => {
          call.waiting = { resolve: resolve as (value: unknown) => void, reject };
          pause(error);
        });
      }
      throw error;
    }
  }
}

/** Whether the upstream session speaks 2026-07-28 (per-request envelopes, no session-wide log level). */
export function isModern(client: Client): boolean {
  const version = client.getNegotiatedProtocolVersion();
  return version !== undefined && version >= '2026';
}

/** The SDK client's code for an answer that does not have the shape of its request's result (the session still works). */
export const INVALID_RESULT = 'INVALID_RESULT';

/** The upstream connection ended while a call used it. */
export class UpstreamClosedError extends ToolwrightError {
  constructor() {
    super('the upstream connection closed');
  }
}
