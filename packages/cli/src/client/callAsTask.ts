import { pathToFileURL } from 'node:url';
import { DEFAULT_REQUEST_TIMEOUT_MSEC, type CallToolResult, type CreateMessageRequest, type ElicitRequest } from '@modelcontextprotocol/client';
import { println, type Io } from '../cli/Io';
import { terminalSafe } from '../cli/terminalSafe';
import { ServerError } from '../cli/UsageError';
import { cliVersion } from '../generate/packageRoot';
import { eventStreamData } from './eventStreamData';
import { limitedFetch } from './limitedFetch';
import type { ServerRequestAnswers } from './ServerRequestAnswers';

/** The tasks extension (SEP-2663), which a 2026-07-28 server advertises in `capabilities.extensions`. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const VERSION = '2026-07-28';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
/** Fewest milliseconds between polls, whatever `pollIntervalMs` the server sends (0, negative, or no number). */
const MIN_POLL_MS = 100;

interface Task {
  readonly taskId: string;
  readonly status: string;
  readonly statusMessage?: string;
  readonly pollIntervalMs?: number;
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params?: Record<string, unknown> }>>;
  readonly result?: CallToolResult;
  readonly error?: { readonly code: number; readonly message: string };
}

export interface TaskCallOptions {
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
  readonly answers: ServerRequestAnswers;
  /**
   * The command's `--timeout`: the longest wait for each answer (default: the SDK's 60000 ms), and
   * how long the task may run once it started, time spent answering its questions aside. A task
   * still running then is cancelled, and the call fails with a `ServerError` that says so.
   * Without it the task is polled until it ends: tasks are for work that outlasts a request.
   */
  readonly timeoutMs?: number;
  /**
   * Most milliseconds between polls (the server's `pollIntervalMs` is honoured up to it). Default 2000.
   * Polls are never closer than `MIN_POLL_MS`, whatever the server asks.
   */
  readonly maxPollMs?: number;
  /** Aborted to cancel the task (Ctrl-C): `tasks/cancel` is sent and the call ends. */
  readonly signal?: AbortSignal;
}

/**
 * Calls a tool on a 2026-07-28 HTTP server that serves tasks, as a client that declared the
 * extension (the SDK's client does not take a task handle yet, so this speaks the wire): a
 * plain call's questions are answered round by round and its result returned; a task is polled (at the server's
 * `pollIntervalMs`), its status messages printed to stderr, its input requests answered as the
 * CLI answers elicitation and sampling, and its result returned. A cancelled or failed task,
 * an answer that is no JSON-RPC answer, and a wait past `timeoutMs` are a `ServerError`; the
 * signal, and a task that has not ended within a given `timeoutMs`, cancel the task.
 */
export async function callAsTask(tool: string, args: Record<string, unknown>, io: Io, options: TaskCallOptions): Promise<CallToolResult> {
  let nextId = 1;
  const limited = limitedFetch(options.url.href);
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MSEC;
  const request: Request = async (method, params, name) => {
    try {
      return await exchange(method, params, name);
    } catch (error) {
      if ((error as Error | undefined)?.name !== 'TimeoutError') throw error;
      throw new ServerError(`${method} '${name}': no answer within ${timeoutMs} ms from ${options.url.href}. If the server is slow, raise --timeout <ms>.`);
    }
  };
  const exchange: Request = async (method, params, name) => {
    // The signal bounds the wait for the headers and the reading of the body.
    const response = await limited.fetch(options.url, {
      method: 'POST',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { ...options.headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': VERSION, 'mcp-method': method, 'mcp-name': name },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': VERSION,
            'io.modelcontextprotocol/clientInfo': { name: 'toolwright-cli', version: cliVersion() },
            'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {}, roots: {}, extensions: { [TASKS_EXTENSION]: {} } },
          },
        },
      }),
    });
    const text = await response.text();
    const message = answerOf(text);
    if (!message) throw new ServerError(`${method} '${name}': the server answered HTTP ${response.status} without a JSON-RPC answer (${text.slice(0, 200)}).`);
    if (message.error) throw new ServerError(`${method} '${name}': ${message.error.message} (JSON-RPC error ${message.error.code})`);
    return message.result;
  };

  const first = await callRounds(request, tool, args, options.answers, io);
  if (first.resultType !== 'task') return first as unknown as CallToolResult;
  const taskId = first.taskId as string;
  println(io.stderr, io.err.dim(`Task ${terminalSafe(String(taskId))} started; polling it${options.signal ? ' (Ctrl-C cancels it)' : ''}.`));
  let cancelled = false;
  const sendCancel = () => request('tasks/cancel', { taskId }, taskId).catch(() => undefined);
  const cancel = () => {
    cancelled = true;
    void sendCancel();
  };
  options.signal?.addEventListener('abort', cancel, { once: true });
  try {
    const answered = new Set<string>();
    let shown = `${String(first.status)}|${String(first.statusMessage ?? '')}`;
    let task = first as unknown as Task;
    const taskTimeoutMs = options.timeoutMs;
    let deadline = taskTimeoutMs === undefined ? Infinity : Date.now() + taskTimeoutMs;
    for (;;) {
      if (cancelled) throw new ServerError(`Task ${taskId} of '${tool}' was cancelled.`);
      const left = deadline - Date.now();
      if (left <= 0) {
        await sendCancel();
        throw new ServerError(`Task ${taskId} of '${tool}' did not end within ${taskTimeoutMs} ms, and was cancelled. If it needs longer, raise --timeout <ms>.`);
      }
      const wait = Math.min(pollWait(task.pollIntervalMs), options.maxPollMs ?? 2000, left);
      await new Promise((resolve) => setTimeout(resolve, wait));
      task = (await request('tasks/get', { taskId }, taskId)) as unknown as Task;
      const now = `${task.status}|${task.statusMessage ?? ''}`;
      if (now !== shown && task.statusMessage) println(io.stderr, io.err.dim(terminalSafe(`[${task.status}] ${task.statusMessage}`)));
      shown = now;
      if (task.status === 'completed') return task.result ?? { content: [] };
      if (task.status === 'failed') throw new ServerError(`Task ${taskId} of '${tool}' failed: ${task.error?.message ?? 'no reason given'} (JSON-RPC error ${task.error?.code ?? -32603})`);
      if (task.status === 'cancelled') throw new ServerError(`Task ${taskId} of '${tool}' was cancelled${task.statusMessage ? `: ${task.statusMessage}` : ''}.`);
      if (task.status !== 'input_required' || TERMINAL.has(task.status)) continue;
      const responses: Record<string, unknown> = {};
      const asking = Date.now();
      for (const [key, asked] of Object.entries(task.inputRequests ?? {})) {
        if (answered.has(key)) continue;
        answered.add(key);
        Object.defineProperty(responses, key, { value: await answer(asked.method, asked.params ?? {}, options.answers, io), enumerable: true });
      }
      // The user's time to answer is not the server's: the deadline moves by it.
      deadline += Date.now() - asking;
      if (Object.keys(responses).length > 0) await request('tasks/update', { taskId, inputResponses: responses }, taskId);
    }
  } finally {
    options.signal?.removeEventListener('abort', cancel);
  }
}

/**
 * The wait the server asks for between polls, at least `MIN_POLL_MS`: a server that sends 0, a
 * negative number or no finite number would otherwise be polled in a tight loop. Default 1000.
 */
function pollWait(pollIntervalMs: unknown): number {
  const asked = typeof pollIntervalMs === 'number' && Number.isFinite(pollIntervalMs) ? pollIntervalMs : 1000;
  return Math.max(asked, MIN_POLL_MS);
}

type Request = (method: string, params: Record<string, unknown>, name: string) => Promise<Record<string, unknown>>;

/** Most rounds of questions one plain call may ask before the CLI gives up (the SDK's own limit). */
const MAX_ROUNDS = 8;

/**
 * `tools/call` as a 2026-07-28 multi-round request: a tool that runs as a plain call and asks
 * (elicitation, sampling, roots) answers `resultType: 'input_required'`; its questions are
 * answered and the call sent again with the answers and the server's `requestState`, until
 * it answers a result or a task.
 */
async function callRounds(request: Request, tool: string, args: Record<string, unknown>, answers: ServerRequestAnswers, io: Io): Promise<Record<string, unknown>> {
  let params: Record<string, unknown> = { name: tool, arguments: args };
  for (let round = 0; ; round++) {
    const result = await request('tools/call', params, tool);
    if (result.resultType !== 'input_required') return result;
    if (round >= MAX_ROUNDS) throw new ServerError(`tools/call '${tool}': the server still asked after ${MAX_ROUNDS} rounds of answers.`);
    const inputResponses: Record<string, unknown> = {};
    const asked = (result.inputRequests ?? {}) as NonNullable<Task['inputRequests']>;
    for (const [key, question] of Object.entries(asked)) Object.defineProperty(inputResponses, key, { value: await answer(question.method, question.params ?? {}, answers, io), enumerable: true });
    params = { name: tool, arguments: args, inputResponses, ...(result.requestState === undefined ? {} : { requestState: result.requestState }) };
  }
}

async function answer(method: string, params: Record<string, unknown>, answers: ServerRequestAnswers, io: Io): Promise<unknown> {
  switch (method) {
    case 'elicitation/create':
      return answers.elicit(params as ElicitRequest['params']);
    case 'sampling/createMessage':
      return answers.sample(params as CreateMessageRequest['params']);
    case 'roots/list':
      return { roots: [{ uri: pathToFileURL(io.cwd).href, name: 'working directory' }] };
    default:
      throw new ServerError(`The task asks '${method}', which toolwright call cannot answer.`);
  }
}

/** The answer in a response body: JSON, or the SSE message that carries a result or an error. */
function answerOf(text: string): Answer | undefined {
  const candidates = text.startsWith('{') ? [text] : eventStreamData(text);
  for (const candidate of candidates) {
    const message = answerIn(candidate);
    if (message) return message;
  }
  return undefined;
}

type Answer = { readonly result: Record<string, unknown>; readonly error?: undefined } | { readonly result?: undefined; readonly error: { readonly code: number; readonly message: string } };

/** `json` as a JSON-RPC answer (an id, and a result object or an error with a numeric code and a string message), or undefined. */
function answerIn(json: string): Answer | undefined {
  let message: unknown;
  try {
    message = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { id, result, error } = message as { id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown } | null };
  if (id === undefined) return undefined;
  if (typeof result === 'object' && result !== null && !Array.isArray(result)) return { result: result as Record<string, unknown> };
  if (typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string') return { error: { code: error.code, message: error.message } };
  return undefined;
}
