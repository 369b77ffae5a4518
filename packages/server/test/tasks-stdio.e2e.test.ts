import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

/**
 * Task status notifications over stdio: a 2026-07-28 client of a stdio server (a real child
 * process, fixtures/tasks-stdio-app.js on the built packages, spoken to in raw JSON lines) opens
 * `subscriptions/listen` with `notifications.taskIds` and hears `notifications/tasks` for its
 * tasks, stamped with the subscription id, as it does over HTTP.
 */
const TASKS = 'io.modelcontextprotocol/tasks';
const meta = (capabilities: object) => ({
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': capabilities,
});
const declaring = meta({ elicitation: {}, extensions: { [TASKS]: {} } });
type Message = { id?: unknown; method?: string; params?: Record<string, unknown> & { _meta?: Record<string, unknown> }; result?: Record<string, unknown>; error?: { code: number } };

describe('task status notifications over stdio', () => {
  let child: ChildProcessWithoutNullStreams;
  const messages: Message[] = [];
  let wake = () => {};
  beforeAll(() => {
    child = spawn(process.execPath, [join(__dirname, 'fixtures', 'tasks-stdio-app.js')]);
    let buffer = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      buffer += chunk;
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) messages.push(JSON.parse(line) as Message);
      wake();
    });
  });
  afterAll(() => {
    child.kill();
  });

  const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  async function next(match: (m: Message) => boolean): Promise<Message> {
    for (;;) {
      const found = messages.find(match);
      if (found) return found;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        wake = () => (clearTimeout(timer), resolve());
      });
    }
  }
  const answer = (id: string | number) => next((m) => m.id === id && m.method === undefined);
  const onStream = (sid: string | number, method: string, status?: string) =>
    next((m) => m.method === method && m.params?._meta?.['io.modelcontextprotocol/subscriptionId'] === sid && (status === undefined || m.params?.status === status));

  it('streams notifications/tasks for the tasks a listen names, from the acknowledgement to the result', async () => {
    send({ id: 1, method: 'tools/call', params: { name: 'gated', arguments: { label: 'report' }, _meta: declaring } });
    const { result: handle } = await answer(1);
    const taskId = handle!.taskId as string;
    send({ id: 'listen', method: 'subscriptions/listen', params: { notifications: { taskIds: [taskId, 'nope', '__proto__'], toolsListChanged: true }, _meta: declaring } });
    const ack = await onStream('listen', 'notifications/subscriptions/acknowledged');
    // Only the caller's own, existing tasks are honored, beside the protocol's own keys.
    expect(ack.params!.notifications).toEqual({ toolsListChanged: true, taskIds: [taskId] });
    const waiting = await onStream('listen', 'notifications/tasks', 'input_required');
    expect(waiting.params).toMatchObject({ taskId, statusMessage: 'started report', inputRequests: { confirm: { method: 'elicitation/create' } } });
    expect(messages.indexOf(waiting)).toBeGreaterThan(messages.indexOf(ack));

    send({ id: 2, method: 'tasks/update', params: { taskId, inputResponses: { confirm: { action: 'accept', content: { confirm: true } } }, _meta: declaring } });
    expect((await answer(2)).result).toMatchObject({ resultType: 'complete' });
    const done = await onStream('listen', 'notifications/tasks', 'completed');
    expect(done.params).toMatchObject({ taskId, result: { content: [{ type: 'text', text: 'finished report' }] } });
    // The stream stays open until the client cancels it: no answer to the listen yet.
    expect(messages.some((m) => m.id === 'listen' && m.method === undefined)).toBe(false);
    send({ method: 'notifications/cancelled', params: { requestId: 'listen' } });
  });

  it('refuses taskIds from a client that did not declare the extension (-32021), and honors no id that is not a task of the caller', async () => {
    send({ id: 3, method: 'subscriptions/listen', params: { notifications: { taskIds: ['x'] }, _meta: meta({}) } });
    expect((await answer(3)).error).toMatchObject({ code: -32021 });
    send({ id: 4, method: 'subscriptions/listen', params: { notifications: { taskIds: ['constructor'] }, _meta: declaring } });
    expect((await onStream(4, 'notifications/subscriptions/acknowledged')).params!.notifications).toEqual({});
    send({ method: 'notifications/cancelled', params: { requestId: 4 } });
    // The connection still serves after both.
    send({ id: 5, method: 'tools/list', params: { _meta: declaring } });
    expect((await answer(5)).result).toMatchObject({ tools: [{ name: 'gated' }] });
  });
});
