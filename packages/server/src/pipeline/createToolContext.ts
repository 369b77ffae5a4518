import {
  CallInterrupt,
  ToolError,
  ToolwrightError,
  type Class,
  type ClientLogger,
  type ElicitationSchema,
  type ElicitOutcome,
  type RoundTripOptions,
  type SamplingRequest,
  type SamplingResult,
  type ToolContext,
  type ToolLogger,
} from '@toolwright/core';
import { cutText, issueLines } from '@toolwright/core/internal';
import { inputRequired, isSpecType, SdkError, SdkErrorCode, type ClientCapabilities, type ElicitResult, type InputRequest, type ListRootsResult, type ServerContext } from '../sdk/sdk';
import { clientAnswerSchema } from '../roundtrip/clientAnswer';
import type { InputRequest as ClientRequest } from '../roundtrip/InputRound';
import type { RequestStateCodec } from '../roundtrip/RequestStateCodec';
import type { Connection } from './Connection';
import type { ElicitationForms } from './ElicitationForms';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import type { SdkRound } from './runWithRounds';
import { requestHeadersOf } from '../sdk/requestHeaders';
import { jsonObject } from '../sdk/toWire';
import { requestEnvelopeOf } from './requestEnvelope';
import { sessionStateOf } from './sessionState';
import { bindContextConnection } from './contextConnection';
import { waitEnded } from './waitEnded';
import { clientLogOf } from './clientLogOf';
import { progressSender } from './progressSender';

/** Per-app state the contexts share. */
export interface ContextEnv {
  /** Elicitation forms, compiled on first use per DTO class or schema content. */
  readonly forms: ElicitationForms;
  /** The framework's own log (stderr), for what the client must not see. */
  readonly logger: ToolLogger;
  /** Signs and verifies the `requestState` of 2026-07-28 round trips. */
  readonly requestState: RequestStateCodec;
  /** The longest line `ctx.log` sends, message and data JSON, in characters (the app's `maxLogLength`). */
  readonly maxLogLength: number;
}

/** A context and the means to end it: after the call's response, progress is no longer sent. */
export interface OpenContext {
  readonly ctx: ToolContext;
  close(): void;
}

/** How much of a client's error message a tool's error quotes. */
const MAX_CLIENT_MESSAGE = 300;

/**
 * The `@Ctx()` object of one call (tool, resource read or prompt), read from the SDK's
 * handler context. Notifications and requests to the client carry the call's request id, so
 * over Streamable HTTP they travel on the call's own response stream.
 *
 * Questions to the client (`elicit`, `elicitUrl`, `sample`, `listRoots`): on a 2025-era
 * request, a request to the client, awaited (a call that ends first, cancelled, timed out or
 * disconnected, ends the wait with a `CallInterrupt`, see `waitEnded`); with a `round` (a
 * 2026-07-28 request), the round answers them from the client's earlier answers or ends the call
 * with `input_required`.
 */
export function createToolContext(name: string, sdk: ServerContext, connection: Connection, env: ContextEnv, signal: AbortSignal = sdk.mcpReq.signal, round?: SdkRound): OpenContext {
  const { server } = connection;
  const { mcpReq } = sdk;
  const token = mcpReq._meta?.progressToken;
  const modern = connection.era === 'modern';
  const envelope = requestEnvelopeOf(sdk, connection);
  let open = true;
  let lastProgress = -Infinity;
  let warnedProgress = false;

  // A progress update must never fail the call, nor pile up while the client does not read (see `progressSender`).
  // Made only for a request that asked for progress.
  const sendProgress =
    token === undefined
      ? undefined
      : progressSender(
          (notification) => mcpReq.notify(notification),
          () => open,
        );
  const log = clientLogOf({
    name,
    notify: (notification) => mcpReq.notify(notification),
    // A 2026-07-28 request without a log level asks for no log notifications at all.
    threshold: () => (modern ? envelope.logLevel : connection.logLevel),
    logger: env.logger,
    maxLength: env.maxLogLength,
  });
  const logger: ClientLogger = {
    debug: (m, d) => log('debug', m, d),
    info: (m, d) => log('info', m, d),
    notice: (m, d) => log('notice', m, d),
    warn: (m, d) => log('warning', m, d),
    warning: (m, d) => log('warning', m, d),
    error: (m, d) => log('error', m, d),
    critical: (m, d) => log('critical', m, d),
    alert: (m, d) => log('alert', m, d),
    emergency: (m, d) => log('emergency', m, d),
    log,
  };

  // A 2026-07-28 request declares the client's capabilities in its `_meta`; a 2025 client at
  // initialize. A 2025 request on a connection that saw no initialize is stateless HTTP.
  const declared = modern ? envelope.clientCapabilities : server.getClientCapabilities();
  const capabilities = () => declared ?? {};
  const refuse = (what: string, capability: string, required: ClientCapabilities): never => {
    const message = `'${name}' needs ${what}, but the client does not support it (no '${capability}' capability). Use a client that supports it.`;
    // 2026-07-28: the spec's missing-capability error (-32021); 2025: a tool error.
    if (modern) throw new CallInterrupt(message, { cause: new ProtocolError(ErrorCodes.MissingClientCapability, message, { requiredCapabilities: required }) });
    if (!declared) {
      throw new ToolError(
        `'${name}' cannot ask the client (${what}): this server serves 2025-era clients over stateless HTTP, where a request cannot wait for the client's answer. Serve sessions (stateful HTTP) or stdio, or use a client of protocol 2026-07-28.`,
      );
    }
    throw new ToolError(message);
  };
  /**
   * One question: on a 2026-07-28 request the round's answer (synchronous, so the questions a
   * method asks together go out in one round), else the client's answer to `request`, sent now.
   * Either way the answer is read as `readClientAnswer` reads it, so the tool sees the same value,
   * or the same field-level refusal, in both eras.
   */
  const ask = <T>(what: string, question: () => InputRequest, options: RoundTripOptions | undefined, request: ClientRequest): T | Promise<T> =>
    round ? (round.resolve(question(), options?.key) as T) : fromClient<T>(what, request, answerTimeout(request.method, options?.timeoutMs));
  const fromClient = async <T>(what: string, request: ClientRequest, timeout: number): Promise<T> => {
    let problem: string | undefined;
    const answer = clientAnswerSchema<T>(request, (found) => (problem = found));
    try {
      return await mcpReq.send(request as { method: string; params?: Record<string, unknown> }, answer, { signal, timeout });
    } catch (error) {
      // The call ended first (cancelled, timed out, its connection closed): the framework ends it, nothing failed.
      if (signal.aborted) throw waitEnded(what, signal.reason);
      if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout) {
        throw new ToolError(`The client did not answer the ${what} request within ${timeout / 1000} s. If its answer may take longer, pass a larger timeoutMs with the question.`, { cause: error });
      }
      if (problem !== undefined) throw new ToolError(`The client's answer to the ${what} request is not a valid ${request.method} result: ${problem}.`, { cause: error });
      // The client's own error message: quoted, never at any length (a client may send megabytes).
      const message = error instanceof Error ? error.message : String(error);
      throw new ToolError(`The client did not answer the ${what} request: ${cutText(message, MAX_CLIENT_MESSAGE)}`, { cause: error });
    }
  };

  const ctx: ToolContext = {
    toolName: name,
    requestId: mcpReq.id,
    signal,
    sessionId: sdk.sessionId,
    session: sessionStateOf(server, !modern && declared !== undefined),
    headers: requestHeadersOf(server.transport, sdk),
    authInfo: sdk.http?.authInfo,
    meta: mcpReq._meta,
    era: connection.era,
    envelope,
    log: logger,
    clientCapabilities: capabilities(),

    async progress(progress, total, message) {
      if (sendProgress === undefined || !open) return;
      // JSON has no NaN or Infinity (they would reach the client as null, which it refuses).
      const finite = Number.isFinite(progress) && (total === undefined || Number.isFinite(total));
      if (!finite || !(progress > lastProgress)) {
        if (!warnedProgress) {
          env.logger.warn(
            finite
              ? `'${name}' reported progress ${progress} after ${lastProgress}; progress must increase, so it was not sent`
              : `'${name}' reported progress ${String(progress)} of ${String(total)}; progress and total must be finite numbers, so it was not sent`,
          );
        }
        warnedProgress = true;
        return;
      }
      lastProgress = progress;
      sendProgress({
        method: 'notifications/progress',
        params: { progressToken: token, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message: cutText(String(message), env.maxLogLength) }) },
      });
    },

    async elicit(message: string, form: Class | ElicitationSchema, options?: RoundTripOptions): Promise<ElicitOutcome<object>> {
      const caps = capabilities().elicitation as { form?: object; url?: object } | undefined;
      // `elicitation: {}` means form mode (2025-06-18 clients); `{ url: {} }` alone means URL mode only.
      if (!caps || (caps.form === undefined && caps.url !== undefined)) refuse('to ask the user for input (form elicitation)', 'elicitation', { elicitation: {} });
      const compiled = env.forms.of(form);
      const params = { mode: 'form' as const, message, requestedSchema: compiled.requestedSchema };
      const request = { method: 'elicitation/create' as const, params };
      const result = await ask<ElicitResult>('elicitation', () => checked(isSpecType.ElicitRequest, request), options, request);
      if (result.action !== 'accept') return { action: result.action };
      const parsed = await compiled.parse(result.content);
      if (!parsed.ok) {
        throw new ToolError(`The user's answer does not fit the form:\n${issueLines(parsed.issues, '(form)')}`);
      }
      return { action: 'accept', content: parsed.value };
    },

    async elicitUrl(message, url, options) {
      const caps = capabilities().elicitation as { url?: object } | undefined;
      if (!caps?.url) refuse('to send the user to a URL (URL-mode elicitation)', 'elicitation.url', { elicitation: { url: {} } });
      // Web Crypto's global, read at call time: importing node:crypto would cost every server's startup.
      const elicitationId = options?.elicitationId ?? crypto.randomUUID();
      // 2026-07-28 URL requests carry no elicitationId: the round's state correlates them.
      const result = await ask<ElicitResult>('elicitation', () => inputRequired.elicitUrl({ message, url }), options, {
        method: 'elicitation/create',
        params: { mode: 'url', message, url, elicitationId },
      });
      return { action: result.action };
    },

    async sample(request, options) {
      if (!capabilities().sampling) refuse('to ask the client model (sampling)', 'sampling', { sampling: {} });
      const params: SamplingRequest =
        typeof request === 'string'
          ? {
              messages: [{ role: 'user', content: { type: 'text', text: request } }],
              maxTokens: options?.maxTokens ?? 1000,
              ...(options?.systemPrompt !== undefined && { systemPrompt: options.systemPrompt }),
            }
          : request;
      const { metadata, ...rest } = params;
      const wire = { ...rest, ...(metadata !== undefined && { metadata: jsonObject(metadata, "ctx.sample()'s request", 'metadata.') }) };
      // A 2025 client must have said it takes tools in sampling (a proxied upstream's request may offer them).
      const { tools, toolChoice } = wire as { tools?: unknown; toolChoice?: unknown };
      if (!round && (tools !== undefined || toolChoice !== undefined) && !(capabilities().sampling as { tools?: object }).tools)
        refuse('to offer the client model tools (sampling with tools)', 'sampling.tools', { sampling: { tools: {} } });
      const question = { method: 'sampling/createMessage' as const, params: wire };
      return ask<SamplingResult>('sampling', () => checked(isSpecType.CreateMessageRequest, question), options, question);
    },

    closeStream() {
      const close = sdk.http?.closeSSE;
      if (!close) return false;
      close();
      return true;
    },

    async listRoots(options) {
      if (!capabilities().roots) refuse("the client's roots", 'roots', { roots: {} });
      const { roots } = await ask<ListRootsResult>('roots/list', () => inputRequired.listRoots(), options, { method: 'roots/list' });
      return roots.map((r) => ({ uri: r.uri, ...(r.name !== undefined && { name: r.name }) }));
    },
  } as ToolContext;
  bindContextConnection(ctx, connection);

  return {
    ctx,
    close: () => {
      open = false;
    },
  };
}

/** How long a 2025-era question waits for the client's answer by default: a person may answer a form or approve a sampling request; roots come from the client itself. */
const ANSWER_TIMEOUT_MS = 600_000;
const ROOTS_TIMEOUT_MS = 60_000;

/** How long a 2025-era question waits for the client's answer: the question's `timeoutMs`, else its method's default. */
function answerTimeout(method: ClientRequest['method'], timeoutMs: number | undefined): number {
  if (timeoutMs === undefined) return method === 'roots/list' ? ROOTS_TIMEOUT_MS : ANSWER_TIMEOUT_MS;
  if (typeof timeoutMs !== 'number' || !(timeoutMs > 0) || !Number.isFinite(timeoutMs)) {
    throw new ToolwrightError(`A question's timeoutMs must be a positive number of milliseconds (got ${String(timeoutMs)}): pass e.g. { timeoutMs: 300_000 } for five minutes.`);
  }
  return timeoutMs;
}

/** `value` as the spec type `guard` checks; a question Toolwright built always passes, so a failure is a bug to report. */
function checked<T>(guard: (value: unknown) => value is T, value: unknown): T {
  if (guard(value)) return value;
  throw new ToolwrightError(`Toolwright built a client request the protocol schema refuses: ${JSON.stringify(value)}. Please report it.`);
}
