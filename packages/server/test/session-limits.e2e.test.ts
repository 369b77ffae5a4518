import type { AuthInfo } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';
import { initializeBody, openRawSession, post } from './fixtures/httpHelpers';
import { waitFor } from './fixtures/waitFor';

/**
 * Issue 31, item 1: no caller can close another caller's session. Each principal (an
 * anonymous caller: each client address) has its own share of sessions; the total only
 * refuses; `initialize` is rate limited per caller; and a request naming another caller's
 * session keeps it alive no longer.
 */
const quiet = { requestLogLevel: 'silent' as const, exitOnSignal: false };
const bearer = (who: string) => ({ authorization: `Bearer ${who}` });
const listRequest = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
/** Every token is valid: its text is the subject, all of one OAuth client. */
const verifyToken = (token: string): AuthInfo => ({ token, clientId: 'client', scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600, extra: { sub: token } });

async function statusOf(url: string, session: string, headers: Record<string, string>): Promise<number> {
  const response = await post(url, listRequest(1), { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
  await response.text();
  return response.status;
}

describe('session limits per caller (issue 31, item 1)', () => {
  let app: App;
  const listeners: HttpListener[] = [];
  const listen = async (sessions: Record<string, unknown>, extra: Record<string, unknown> = {}) => {
    const l = await app.listen({ transport: 'http', port: 0, ...quiet, sessions, auth: { verifyToken, authorizationServers: ['https://auth.example.com'] }, ...extra });
    listeners.push(l);
    return l;
  };

  beforeAll(async () => {
    app = await createApp({ name: 'limits', version: '1.0.0', tools: [HttpTools] });
  });
  afterAll(() => Promise.all(listeners.map((l) => l.close())));

  it("a principal opening sessions past its share closes its own oldest, never another principal's", async () => {
    const l = await listen({ maxSessions: 50, maxSessionsPerPrincipal: 10, initializeRate: false });
    const alice = await openRawSession(l.url, bearer('alice'));
    const mallory: string[] = [];
    for (let i = 0; i < 60; i++) mallory.push(await openRawSession(l.url, bearer('mallory')));
    expect(await statusOf(l.url, alice, bearer('alice'))).toBe(200);
    expect(await statusOf(l.url, mallory[0], bearer('mallory'))).toBe(404);
    expect(await statusOf(l.url, mallory[59], bearer('mallory'))).toBe(200);
    expect(l.sessionCount).toBe(11);
  });

  it('once the total is reached, initialize gets 503 with Retry-After and no open session is closed', async () => {
    const l = await listen({ maxSessions: 3, initializeRate: false });
    const open = [await openRawSession(l.url, bearer('a')), await openRawSession(l.url, bearer('b')), await openRawSession(l.url, bearer('c'))];
    const refused = await post(l.url, initializeBody(7), bearer('d'));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(refused.headers.get('mcp-session-id')).toBeNull();
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32000, message: expect.stringContaining('sessions.maxSessions') } });
    for (const [i, who] of ['a', 'b', 'c'].entries()) expect(await statusOf(l.url, open[i], bearer(who))).toBe(200);
    expect(l.sessionCount).toBe(3);
  });

  it('limits the rate of initialize per principal: 429 with Retry-After and a JSON-RPC error for its id; others go on', async () => {
    const l = await listen({ initializeRate: { burst: 3, perMinute: 1 } });
    for (let i = 0; i < 3; i++) await openRawSession(l.url, bearer('eager'));
    const refused = await post(l.url, initializeBody('fourth'), bearer('eager'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', id: 'fourth', error: { code: -32000, message: expect.stringContaining('initializeRate') } });
    expect(l.sessionCount).toBe(3);
    // Another principal has its own allowance.
    await openRawSession(l.url, bearer('patient'));
    expect(l.sessionCount).toBe(4);
  });

  it('counts anonymous callers by client address (clientAddressOf), each with its own rate and share', async () => {
    const app2 = await createApp({ name: 'anonymous', version: '1.0.0', tools: [HttpTools] });
    const l = await app2.listen({
      transport: 'http',
      port: 0,
      ...quiet,
      sessions: { maxSessionsPerPrincipal: 2, initializeRate: { burst: 3, perMinute: 1 }, clientAddressOf: (req) => req.headers['x-client'] as string | undefined },
    });
    listeners.push(l);
    const from = (address: string) => ({ 'x-client': address });
    const first = await openRawSession(l.url, from('10.0.0.1'));
    await openRawSession(l.url, from('10.0.0.2'));
    await openRawSession(l.url, from('10.0.0.2'));
    await openRawSession(l.url, from('10.0.0.2')); // its third: closes its own first
    expect(await statusOf(l.url, first, from('10.0.0.1'))).toBe(200);
    expect(l.sessionCount).toBe(3);
    const refused = await post(l.url, initializeBody(), from('10.0.0.2'));
    expect(refused.status).toBe(429);
    await refused.text();
    await openRawSession(l.url, from('10.0.0.1'));
  });

  it('does not rate-limit anonymous callers on a loopback address, which every local client shares (their share of sessions still holds)', async () => {
    const app2 = await createApp({ name: 'local', version: '1.0.0', tools: [HttpTools] });
    const l = await app2.listen({ transport: 'http', port: 0, ...quiet, sessions: { maxSessionsPerPrincipal: 4, initializeRate: { burst: 1, perMinute: 1 } } });
    listeners.push(l);
    const first = await openRawSession(l.url);
    for (let i = 0; i < 4; i++) await openRawSession(l.url);
    expect(l.sessionCount).toBe(4);
    expect(await statusOf(l.url, first, {})).toBe(404);
  });

  it("a request naming another principal's session gets 404 and does not keep that session alive", async () => {
    const l = await listen({ idleTimeoutMs: 300, initializeRate: false });
    const alice = await openRawSession(l.url, bearer('alice'));
    // Mallory names Alice's session over and over; it still expires once Alice stops using it.
    await waitFor(async () => {
      expect(await statusOf(l.url, alice, bearer('mallory'))).toBe(404);
      return l.sessionCount === 0;
    }, "Alice's idle session to expire while Mallory names it");
    expect(await statusOf(l.url, alice, bearer('alice'))).toBe(404);
  });
});
