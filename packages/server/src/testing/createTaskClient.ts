import { ToolwrightError } from '@toolwright/core';
import { ProtocolError } from '../sdk/ProtocolError';

const TASKS = 'io.modelcontextprotocol/tasks';
const VERSION = '2026-07-28';
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);

/** A task as `tasks/get` shows it (SEP-2663 `DetailedTask`). */
export interface TaskState {
  readonly taskId: string;
  readonly status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  readonly statusMessage?: string;
  readonly createdAt: string;
  readonly lastUpdatedAt: string;
  readonly ttlMs: number | null;
  readonly pollIntervalMs?: number;
  /** The questions it waits on (status `input_required`), by key. */
  readonly inputRequests?: Readonly<Record<string, { readonly method: string; readonly params?: Readonly<Record<string, unknown>> }>>;
  /** The tool's result (status `completed`; `isError` results too). */
  readonly result?: Readonly<Record<string, unknown>> & { readonly content?: readonly Readonly<Record<string, unknown>>[]; readonly isError?: boolean };
  /** The JSON-RPC error that ended it (status `failed`). */
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** A JSON-RPC error answer, with its code. */
export interface TaskRequestError extends Error {
  readonly code: number;
  readonly data?: unknown;
}

/** What `call` answers: a task handle, or the tool's result when the server answered at once (a tool that is not a task, or a fast one). */
export type TaskCallAnswer = { readonly resultType: 'task'; readonly task: TaskState } | { readonly resultType: 'complete'; readonly result: Readonly<Record<string, unknown>> };

/** Where a task client sends its requests: an app in this process (`app.fetch`), or a Streamable HTTP endpoint. */
export type TaskClientTarget = { fetch(request: Request): Promise<Response> } | { readonly url: string | URL; readonly headers?: Readonly<Record<string, string>> };

export interface TaskClientOptions {
  /** Sent with every request (e.g. `{ authorization: 'Bearer …' }`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The client's capabilities besides the tasks extension. Default: `{ elicitation: { form: {} }, sampling: {}, roots: {} }`. */
  readonly capabilities?: Readonly<Record<string, unknown>>;
  readonly clientInfo?: { readonly name: string; readonly version: string };
}

export interface PollOptions {
  /** Stops polling once this says so. Default: a terminal status (completed, failed, cancelled). */
  readonly until?: (task: TaskState) => boolean;
  /** Milliseconds between polls. Default 10 (tests); `'server'` honours the task's `pollIntervalMs`. */
  readonly intervalMs?: number | 'server';
  /** Gives up after this many milliseconds (throws). Default 10000. */
  readonly timeoutMs?: number;
  /** Called with each state polled whose status or status message changed. */
  readonly onStatus?: (task: TaskState) => void;
}

export interface RunTaskOptions extends PollOptions {
  /** Answers one input request (`elicitation/create`, `sampling/createMessage`, `roots/list`); its return value is sent as the response. Without it, a task that asks fails the run. */
  readonly answer?: (request: { readonly key: string; readonly method: string; readonly params?: Readonly<Record<string, unknown>> }, task: TaskState) => unknown;
}

/** Drives tasks (`io.modelcontextprotocol/tasks`) as a 2026-07-28 client that declared the extension. */
export interface TaskClient {
  /** `tools/call`: the task handle, or the result when the server answered at once. */
  call(name: string, args?: Readonly<Record<string, unknown>>): Promise<TaskCallAnswer>;
  /** `tasks/get`. */
  get(taskId: string): Promise<TaskState>;
  /** `tasks/update` with answers to the task's input requests, by key. */
  update(taskId: string, inputResponses: Readonly<Record<string, unknown>>): Promise<void>;
  /** `tasks/cancel`. */
  cancel(taskId: string): Promise<void>;
  /** Polls `tasks/get` until `until` (default: a terminal status). */
  poll(taskId: string, options?: PollOptions): Promise<TaskState>;
  /** Calls the tool and drives its task to the end, answering its input requests with `answer`: the final state (a result answered at once counts as completed). */
  run(name: string, args?: Readonly<Record<string, unknown>>, options?: RunTaskOptions): Promise<TaskState>;
}

/**
 * A client for task tools (`@Tool({ task })`), speaking the 2026-07-28 wire itself: the SDK's
 * client (2.4) does not accept a `tools/call` answered with a task handle yet. Give it the app
 * (`app.fetch`, in this process) or the URL of a running Streamable HTTP endpoint. It sends the
 * `Mcp-Method` and `Mcp-Name` headers and the per-request `_meta` a client sends.
 *
 * @example
 * const tasks = createTaskClient(app);
 * const done = await tasks.run('build_report', { quarter: 'Q3' }, { answer: () => ({ action: 'accept', content: { confirm: true } }) });
 * expect(done.result?.content).toEqual([{ type: 'text', text: 'Q3 report ready' }]);
 */
export function createTaskClient(target: TaskClientTarget, options: TaskClientOptions = {}): TaskClient {
  const send =
    'fetch' in target
      ? (init: RequestInit) => target.fetch(new Request('http://localhost/mcp', init))
      : (init: RequestInit) => fetch(target.url, { ...init, headers: { ...target.headers, ...(init.headers as Record<string, string>) } });
  const capabilities = { ...(options.capabilities ?? { elicitation: { form: {} }, sampling: {}, roots: {} }), extensions: { [TASKS]: {} } };
  let nextId = 1;

  const request = async (method: string, params: Record<string, unknown>, name: string): Promise<Record<string, unknown>> => {
    const response = await send({
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': VERSION,
        'mcp-method': method,
        'mcp-name': name,
        ...options.headers,
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: nextId++,
        method,
        params: {
          ...params,
          _meta: {
            'io.modelcontextprotocol/protocolVersion': VERSION,
            'io.modelcontextprotocol/clientInfo': options.clientInfo ?? { name: 'toolwright-task-client', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': capabilities,
          },
        },
      }),
    });
    const message = await answerOf(response, method);
    if (message.error) throw new ProtocolError(message.error.code, `${method}: ${message.error.message} (JSON-RPC error ${message.error.code})`, message.error.data) as TaskRequestError;
    return message.result ?? {};
  };

  const get = async (taskId: string) => (await request('tasks/get', { taskId }, taskId)) as unknown as TaskState;

  const poll = async (taskId: string, poll: PollOptions = {}): Promise<TaskState> => {
    const until = poll.until ?? ((task: TaskState) => TERMINAL.has(task.status));
    const deadline = Date.now() + (poll.timeoutMs ?? 10_000);
    let seen = '';
    for (;;) {
      const task = await get(taskId);
      const version = `${task.status}|${task.statusMessage ?? ''}`;
      if (version !== seen) {
        seen = version;
        poll.onStatus?.(task);
      }
      if (until(task)) return task;
      if (Date.now() > deadline)
        throw new ToolwrightError(`Task ${taskId} did not get there within ${poll.timeoutMs ?? 10_000} ms; it is ${task.status}${task.statusMessage ? ` (${task.statusMessage})` : ''}.`);
      const wait = poll.intervalMs === 'server' ? (task.pollIntervalMs ?? 1000) : (poll.intervalMs ?? 10);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  };

  const client: TaskClient = {
    async call(name, args = {}) {
      const result = await request('tools/call', { name, arguments: args }, name);
      if (result.resultType === 'task') {
        const { resultType: _task, ...task } = result;
        return { resultType: 'task', task: task as unknown as TaskState };
      }
      return { resultType: 'complete', result };
    },
    get,
    async update(taskId, inputResponses) {
      await request('tasks/update', { taskId, inputResponses }, taskId);
    },
    async cancel(taskId) {
      await request('tasks/cancel', { taskId }, taskId);
    },
    poll,
    async run(name, args = {}, run = {}) {
      const answer = await client.call(name, args);
      if (answer.resultType === 'complete') {
        const now = new Date().toISOString();
        return { taskId: '', status: 'completed', createdAt: now, lastUpdatedAt: now, ttlMs: null, result: answer.result };
      }
      const taskId = answer.task.taskId;
      const answered = new Set<string>();
      for (;;) {
        const task = await poll(taskId, {
          ...run,
          until: (t) => TERMINAL.has(t.status) || (t.status === 'input_required' && Object.keys(t.inputRequests ?? {}).some((k) => !answered.has(k))) || (run.until?.(t) ?? false),
        });
        if (task.status !== 'input_required' || run.until?.(task)) return task;
        if (!run.answer) throw new ToolwrightError(`Task ${taskId} of '${name}' asks for input (${Object.keys(task.inputRequests ?? {}).join(', ')}): pass run(..., { answer }) to answer it.`);
        const responses: Record<string, unknown> = {};
        for (const [key, asked] of Object.entries(task.inputRequests ?? {})) {
          if (answered.has(key)) continue;
          answered.add(key);
          Object.defineProperty(responses, key, { value: await run.answer({ key, method: asked.method, ...(asked.params && { params: asked.params }) }, task), enumerable: true });
        }
        await client.update(taskId, responses);
      }
    },
  };
  return client;
}

type Answer = { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } };

/** The JSON-RPC message of a response: a JSON body, or the first message of an SSE stream that answers the request. */
async function answerOf(response: Response, method: string): Promise<Answer> {
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('text/event-stream')) {
    for (const line of text.split('\n')) {
      if (!line.startsWith('data: ')) continue;
      const message = answerIn(line.slice(6));
      if (message) return message;
    }
  } else {
    // A JSON body that is no JSON-RPC answer (an OAuth refusal's `{ "error": "invalid_token" }`) is shown as it came.
    const message = answerIn(text);
    if (message) return message;
  }
  throw new ToolwrightError(`${method}: the server answered HTTP ${response.status} without a JSON-RPC message (${text.slice(0, 200)}).`);
}

/** `json` as a JSON-RPC answer (an id, and a result object or an error with a numeric code and a message), or undefined. */
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
  if (typeof error === 'object' && error !== null && typeof error.code === 'number' && typeof error.message === 'string') return { error: error as Answer['error'] };
  return undefined;
}
