import 'reflect-metadata';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { codeOf } from './fixtures/codeOf';
import { modernRequest, openModern } from './fixtures/modernRequest';
import { streamText } from './fixtures/streamText';

/**
 * A task belongs to the caller who created it: another caller naming its id (in `tasks/*` or in a
 * `subscriptions/listen`) learns nothing it would not learn of an id that never existed, and hears
 * none of its changes. Raw 2026-07-28 requests with bearer tokens through the app's fetch handler
 * (the SDK v2 client refuses a task handle, and a listen here must carry another caller's token).
 */
const declaring = { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } };
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;
const silent = { debug() {}, info() {}, warn() {}, error() {} };

class Jobs {
  @Tool({ description: 'Asks for confirmation, then answers.', task: 'required' })
  async confirm(@Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit('Go ahead?', CONFIRM as never, { key: 'go' });
    return `answered ${answer.action}`;
  }
}

describe('tasks of another caller (2026-07-28, bearer tokens)', () => {
  let app: App;
  let handler: FetchHandler;
  beforeAll(async () => {
    app = await createApp({ name: 'callers', version: '1.0.0', tools: [Jobs], extensions: [tasks({ ttlMs: 60_000, logger: silent })], logger: silent });
    const verifyToken = (token: string) => ({ token, clientId: 'app', scopes: [], extra: { sub: token } });
    handler = createFetchHandler(app, { auth: { verifyToken, resource: 'http://localhost/mcp', authorizationServers: ['https://auth.example'] }, logError: () => undefined });
  });
  afterAll(() => handler.close());

  const as = (token: string) => ({ capabilities: declaring, headers: { authorization: `Bearer ${token}` } });
  const call = (token: string, method: string, params: Record<string, unknown>) => modernRequest(handler, method, params, as(token));
  const asking = async (token: string) => {
    const { taskId } = await call(token, 'tools/call', { name: 'confirm', arguments: {} });
    for (let i = 0; i < 500 && (await call(token, 'tasks/get', { taskId })).status !== 'input_required'; i++) await new Promise((r) => setTimeout(r, 2));
    return taskId as string;
  };

  it('answers tasks/get, tasks/update and tasks/cancel of another caller’s task exactly as for an id that never existed', async () => {
    const taskId = await asking('alice');
    const unknown = 'A'.repeat(taskId.length);
    for (const [method, extra] of [
      ['tasks/get', {}],
      ['tasks/update', { inputResponses: { go: { action: 'accept', content: { confirm: true } } } }],
      ['tasks/cancel', {}],
    ] as const) {
      const foreign = await codeOf(call('mallory', method, { taskId, ...extra }));
      const never = await codeOf(call('mallory', method, { taskId: unknown, ...extra }));
      expect(foreign).toMatchObject({ code: -32602 });
      expect(JSON.stringify(foreign).replaceAll(taskId, '<id>')).toBe(JSON.stringify(never).replaceAll(unknown, '<id>'));
    }
    // Alice's task is as she left it: not answered, not cancelled.
    expect(await call('alice', 'tasks/get', { taskId })).toMatchObject({ status: 'input_required', inputRequests: { go: { method: 'elicitation/create' } } });
    await call('alice', 'tasks/cancel', { taskId });
  });

  it('honors no listen of another caller’s task id and sends none of its changes; its owner hears them', async () => {
    const taskId = await asking('alice');
    const listen = async (token: string, id: string) => {
      const stream = streamText(await openModern(handler, 'subscriptions/listen', { notifications: { taskIds: [taskId] } }, as(token), id));
      await stream.read((text) => text.includes('notifications/subscriptions/acknowledged'));
      return stream;
    };
    const mallory = await listen('mallory', 'sub-mallory');
    const alice = await listen('alice', 'sub-alice');
    try {
      expect(mallory.text).toContain('"notifications":{}');
      expect(alice.text).toContain(`"notifications":{"taskIds":["${taskId}"]}`);
      await call('alice', 'tasks/update', { taskId, inputResponses: { go: { action: 'accept', content: { confirm: true } } } });
      await alice.read((text) => text.includes('"status":"completed"'));
      expect(alice.text).toContain('answered accept');
      // Mallory's stream is still open and got nothing since its acknowledgement: a keep-alive it may get, the task never.
      await new Promise((r) => setTimeout(r, 50));
      expect(mallory.text).not.toContain(taskId);
      expect(mallory.text).not.toContain('notifications/tasks');
    } finally {
      await mallory.cancel();
      await alice.cancel();
    }
  });
});
