import 'reflect-metadata';
import { Tool } from '@toolwright/core';
import { createApp, tasks, TASKS_EXTENSION_ID, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { codeOf } from './fixtures/codeOf';
import { openRawSession, post } from './fixtures/httpHelpers';
import { modernRequest } from './fixtures/modernRequest';

/**
 * A verifier of the app's own that names no subject (`authInfo.extra.sub`), for tokens of one
 * client: each token is a caller of its own. Over real HTTP, no token reaches the session or the
 * task another token opened.
 */
const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const known = new Set(['key-alice', 'key-mallory']);
// Every key belongs to one client, and the result names no user.
const verifyToken = (token: string) => (known.has(token) ? { token, clientId: 'api-keys', scopes: [] } : undefined);

class Reports {
  @Tool({ description: 'Says hello.' })
  hello() {
    return 'hello';
  }

  @Tool({ description: 'Builds a report, as a task.', task: 'required' })
  report() {
    return 'the report';
  }
}

describe('a token verifier that names no subject', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'no-subject', version: '1.0.0', tools: [Reports], extensions: [tasks({ ttlMs: 60_000, logger: silent })], logger: silent });
    listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, ...quiet, auth: { verifyToken } });
  });
  afterAll(() => listener.close());

  it("binds a 2025-era session to the token that opened it: another token of the same client gets 404, the owner's token goes on", async () => {
    const session = await openRawSession(listener.url, bearer('key-alice'));
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const stolen = await post(listener.url, list, { ...bearer('key-mallory'), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    expect(stolen.status).toBe(404);
    await stolen.text();
    const own = await post(listener.url, list, { ...bearer('key-alice'), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('"hello"');
  });

  it('keeps a task of one token unknown to another token of the same client', async () => {
    const as = (token: string) => ({ capabilities: { extensions: { [TASKS_EXTENSION_ID]: {} } }, headers: bearer(token) });
    const { taskId } = await modernRequest(listener.url, 'tools/call', { name: 'report', arguments: {} }, as('key-alice'));
    expect(typeof taskId).toBe('string');
    expect(await codeOf(modernRequest(listener.url, 'tasks/get', { taskId }, as('key-mallory')))).toMatchObject({ code: -32602 });
    expect(await modernRequest(listener.url, 'tasks/get', { taskId }, as('key-alice'))).toMatchObject({ taskId });
  });
});
