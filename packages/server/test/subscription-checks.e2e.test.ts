import type { AuthInfo } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { SubscriptionBoard } from './fixtures/subscriptionBoard';
import { MODERN } from './fixtures/eras';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';
import { listenInMemory } from './fixtures/memoryStdio';

/**
 * Issue 31, item 3, on one instance: a subscription is taken only once the app accepted it
 * (the URI exists, the caller has its scopes, its guards pass), a URI with control characters
 * is refused, a session holds at most 100; and a 2026-07-28 `subscriptions/listen` passes the
 * same checks for every resource it names.
 */
const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const verifyToken = (token: string): AuthInfo => ({
  token,
  clientId: 'client',
  scopes: token === 'insider' ? ['secret:read'] : [],
  expiresAt: Math.floor(Date.now() / 1000) + 3600,
  extra: { sub: token },
});
const bearer = (who: string) => ({ authorization: `Bearer ${who}` });

describe('subscriptions are checked before they are taken (issue 31, item 3)', () => {
  let app: App;
  let listener: HttpListener;
  beforeAll(async () => {
    app = await createApp({ name: 'board', version: '1.0.0', tools: [SubscriptionBoard] });
    listener = await app.listen({ transport: 'http', port: 0, ...quiet, auth: { verifyToken, authorizationServers: ['https://auth.example.com'] } });
  });
  afterAll(() => listener.close());

  async function subscribe(session: string, uri: string, who = 'outsider', id = 1): Promise<Record<string, unknown>> {
    const response = await post(
      listener.url,
      { jsonrpc: '2.0', id, method: 'resources/subscribe', params: { uri } },
      { ...bearer(who), 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    );
    const [answer] = await messagesOf(response);
    return answer;
  }

  it('refuses a URI holding a line break (or any control character), even one a template would match', async () => {
    const session = await openRawSession(listener.url, bearer('outsider'));
    expect(await subscribe(session, 'files://a')).toMatchObject({ result: {} });
    for (const uri of ['files://a\nfiles://b', 'files://a\r', 'files://\u0000x', 'files://\u007f']) {
      expect(await subscribe(session, uri)).toMatchObject({ error: { code: -32602, message: expect.stringContaining('control characters') } });
    }
  });

  it('holds a session to 100 subscriptions: the 101st is refused, one already held is not', async () => {
    const session = await openRawSession(listener.url, bearer('outsider'));
    for (let i = 0; i < 100; i++) expect(await subscribe(session, `files://${i}`, 'outsider', i)).toMatchObject({ result: {} });
    expect(await subscribe(session, 'files://100')).toMatchObject({ error: { code: -32602, message: expect.stringContaining('100') } });
    expect(await subscribe(session, 'files://7')).toMatchObject({ result: {} });
    expect(await subscribe(session, `files://${'x'.repeat(2100)}`)).toMatchObject({ error: { code: -32602 } });
  });

  describe('2026-07-28 subscriptions/listen', () => {
    async function listen(uris: string[], who: string): Promise<Response> {
      const request = MODERN.request({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: uris } } });
      return post(listener.url, request, { ...MODERN.headers(request), ...bearer(who) });
    }

    it.each([
      ['an unknown resource', 'nothing://here', 'outsider'],
      ['a resource whose scope the caller lacks', 'secret://plans', 'outsider'],
      ['a resource whose guard refuses the caller', 'guarded://data', 'outsider'],
      ['a URI with a line break', 'files://a\nsecret://plans', 'outsider'],
    ])('refuses to listen to %s, as resources/subscribe would', async (_what, uri, who) => {
      const response = await listen(['open://status', uri], who);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('application/json');
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', id: 'listen', error: { code: -32602 } });
    });

    it('listens to resources the caller may subscribe to', async () => {
      const response = await listen(['open://status', 'secret://plans', 'files://a'], 'insider');
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('text/event-stream');
      const reader = response.body!.getReader();
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value)).toContain('notifications/subscriptions/acknowledged');
      await reader.cancel();
    });
  });

  describe('2026-07-28 subscriptions/listen over stdio', () => {
    const outsider = { token: 'outsider', clientId: 'client', scopes: [] as string[] };

    it.each([
      ['an unknown resource', 'nothing://here'],
      ['a resource whose scope the caller lacks', 'secret://plans'],
      ['a resource whose guard refuses the caller', 'guarded://data'],
      ['a URI with a line break', 'files://a\nsecret://plans'],
    ])('refuses to listen to %s, as resources/subscribe would', async (_what, uri) => {
      const stdio = await listenInMemory(app, outsider);
      try {
        stdio.send(MODERN.request({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['open://status', uri] } } }));
        expect(await stdio.answer('listen')).toMatchObject({ jsonrpc: '2.0', id: 'listen', error: { code: -32602 } });
        // The connection still serves.
        stdio.send(MODERN.request({ jsonrpc: '2.0', id: 'after', method: 'resources/list' }));
        expect(await stdio.answer('after')).toHaveProperty('result.resources');
      } finally {
        await stdio.close();
      }
    });

    it('listens to resources the caller may subscribe to', async () => {
      const stdio = await listenInMemory(app, { ...outsider, token: 'insider', scopes: ['secret:read'] });
      try {
        stdio.send(MODERN.request({ jsonrpc: '2.0', id: 'listen', method: 'subscriptions/listen', params: { notifications: { resourceSubscriptions: ['open://status', 'secret://plans'] } } }));
        for (let i = 0; i < 400 && !stdio.out.some((m) => m.method === 'notifications/subscriptions/acknowledged'); i++) await new Promise((resolve) => setTimeout(resolve, 5));
        expect(stdio.out.some((m) => m.method === 'notifications/subscriptions/acknowledged')).toBe(true);
        expect(stdio.out.find((m) => m.id === 'listen' && 'error' in m)).toBeUndefined();
        // The open stream does not hold shutdown for the drain timeout (10 s).
        expect(await Promise.race([stdio.close().then(() => 'closed'), new Promise((resolve) => setTimeout(resolve, 5000, 'still draining'))])).toBe('closed');
      } finally {
        await stdio.close();
      }
    });
  });
});
