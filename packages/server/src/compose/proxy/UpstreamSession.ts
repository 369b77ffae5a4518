import { AsyncLocalStorage } from 'node:async_hooks';
import { CallInterrupt, LOG_LEVELS, ToolwrightError, type AuthInfo, type ElicitationSchema, type LogLevel, type SamplingRequest, type ToolContext } from '@toolwright/core';
import type { Client, ClientCapabilities } from '../../sdk/proxyClient';
import { openUpstream, type UpstreamRelay } from './openUpstream';
import type { ProxyOptions } from './ProxyOptions';

/** One downstream call running on an upstream session: where the upstream's questions and log lines for it go. */
interface RunningCall {
  readonly ctx: ToolContext;
  /** The progress token of its upstream request (the proxy's own). */
  readonly token: string;
  readonly abort: AbortController;
  /** A 2026-07-28 round's interrupt (the downstream client must answer first): ends the call with `input_required`. */
  interrupt?: unknown;
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
  /** The downstream caller this session speaks for now (read for each upstream HTTP request's credentials). */
  caller: AuthInfo | undefined;
  lastUsed = Date.now();

  private constructor(private readonly onEnd: () => void) {}

  /** Opens a session with the upstream for `caller`, declaring `capabilities` (what the downstream client can answer). */
  static async open(options: ProxyOptions, capabilities: ClientCapabilities, caller: AuthInfo | undefined, onEnd: () => void): Promise<UpstreamSession> {
    const session = new UpstreamSession(onEnd);
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

  /** Runs `send` for the downstream call `ctx`: cancelled with it, its questions answered by its client. */
  async run<R>(ctx: ToolContext, send: (client: Client, signal: AbortSignal, progressToken: string) => Promise<R>): Promise<R> {
    if (this.ended || !this.client) throw new UpstreamClosedError();
    this.lastUsed = Date.now();
    const call: RunningCall = { ctx, token: `proxy-${++this.sent}`, abort: new AbortController() };
    const cancel = () => call.abort.abort(ctx.signal.reason);
    if (ctx.signal.aborted) cancel();
    else ctx.signal.addEventListener('abort', cancel, { once: true });
    this.calls.add(call);
    this.byToken.set(call.token, call);
    try {
      return await running.run(call, () => send(this.client!, call.abort.signal, call.token));
    } catch (error) {
      if (call.interrupt !== undefined) throw call.interrupt;
      // The SDK reports an aborted request with its own error: say what ended it.
      if (call.abort.signal.reason instanceof UpstreamClosedError) throw call.abort.signal.reason;
      // Not an answer of the upstream's (a JSON-RPC error) nor a cancellation: the session is
      // unusable (the upstream restarted and forgot it, the process died). The next call opens another.
      if (typeof (error as { code?: unknown })?.code !== 'number' && !ctx.signal.aborted) this.end();
      throw error;
    } finally {
      this.calls.delete(call);
      this.byToken.delete(call.token);
      ctx.signal.removeEventListener('abort', cancel);
      this.lastUsed = Date.now();
    }
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
          if (!call || typeof level !== 'string' || !LEVELS.has(level)) return;
          if (typeof data === 'string') call.ctx.log.log(level as LogLevel, data);
          else call.ctx.log.log(level as LogLevel, typeof logger === 'string' ? logger : 'upstream', data);
        }
      },
      closed: () => {
        this.ended = true;
        for (const call of this.calls) call.abort.abort(new UpstreamClosedError());
        this.onEnd();
      },
    };
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
   * e.g. for roots after connecting, not for this call).
   */
  private async ask<T>(capability: 'elicitation' | 'sampling' | 'roots', question: (ctx: ToolContext) => Promise<T>): Promise<T> {
    const call = this.target();
    if (!call) throw new ToolwrightError('No call of this client is running, so there is no one to ask: the proxy answers questions only during a tools/call, prompts/get or resources/read.');
    if (!Object.hasOwn(call.ctx.clientCapabilities, capability)) throw new ToolwrightError(`The client does not support ${capability}.`);
    try {
      return await question(call.ctx);
    } catch (error) {
      // A 2026-07-28 downstream answers in a later round: end this attempt; the retry asks again and gets the answer.
      if (CallInterrupt.is(error)) {
        call.interrupt ??= error;
        call.abort.abort(new ToolwrightError('the client answers in its next request (a 2026-07-28 round); this attempt ends here'));
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

/** The upstream connection ended while a call used it. */
export class UpstreamClosedError extends ToolwrightError {
  constructor() {
    super('the upstream connection closed');
  }
}
