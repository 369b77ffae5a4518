import type { AuthInfo } from '@toolwright/core';
import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';

const VERSION = '2026-07-28';
const RESOURCE = 'https://mcp.example.test/mcp';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': VERSION,
  'io.modelcontextprotocol/clientCapabilities': { elicitation: { form: {} }, sampling: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const SECRET = 'hunter2-one-time-code-734915';

class Vault {
  @Tool({ description: 'Asks for a password, then asks the model something, then opens the vault.' })
  async open(@Ctx() ctx: ToolContext) {
    const login = await ctx.elicit('Password?', { type: 'object', properties: { password: { type: 'string' } }, required: ['password'] });
    const reply = await ctx.sample('Say the magic word.');
    if (login.action !== 'accept') return 'not opened';
    return `opened for ${(login.content as { password: string }).password.length}-character password; the model said ${(reply.content as { text: string }).text}`;
  }
}

const hour = () => Math.floor(Date.now() / 1000) + 3600;
/** Two users of one OAuth client (same client id, different subjects), and a token that names no subject. */
const callers: Record<string, AuthInfo> = {
  alice: { token: 'alice', clientId: 'shared-app', scopes: [], expiresAt: hour(), extra: { sub: 'alice' } },
  bob: { token: 'bob', clientId: 'shared-app', scopes: [], expiresAt: hour(), extra: { sub: 'bob' } },
  keyA: { token: 'keyA', clientId: 'shared-app', scopes: [], expiresAt: hour() },
  keyB: { token: 'keyB', clientId: 'shared-app', scopes: [], expiresAt: hour() },
};

type Answer = { result?: { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string; content?: { text: string }[] }; error?: { code: number; message: string } };

/** A 2026-07-28 tools/call of `open` over raw HTTP with `token`; its JSON-RPC answer. */
async function callOpen(url: string, token: string, extra: Record<string, unknown> = {}): Promise<Answer> {
  const body = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'open', arguments: {}, ...extra, _meta: ENVELOPE } };
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      'mcp-protocol-version': VERSION,
      'mcp-method': 'tools/call',
      'mcp-name': 'open',
    },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  const data = text.split('\n').find((line) => line.startsWith('data: '));
  return JSON.parse(data ? data.slice(6) : text) as Answer;
}

const PASSWORD = { action: 'accept', content: { password: SECRET } };
const REPLY = { role: 'assistant', content: { type: 'text', text: 'please' }, model: 'm' };

describe('2026-07-28 requestState is sealed and bound to the client and the subject', () => {
  let app: App;
  let listener: HttpListener;

  beforeAll(async () => {
    app = await createApp({ name: 'vault', version: '1.0.0', tools: [Vault], requestState: { keys: ['k'.repeat(40)] } });
    listener = await app.listen({
      transport: 'http',
      port: 0,
      exitOnSignal: false,
      requestLogLevel: 'silent',
      stateless: true,
      auth: { resource: RESOURCE, authorizationServers: ['https://auth.example.test'], verifyToken: (token) => (Object.hasOwn(callers, token) ? callers[token] : undefined) },
    });
  });
  afterAll(() => listener.close());

  /** Runs the first round as `token` and answers the password: the second round's answer (asking for the sample). */
  async function afterPassword(token: string): Promise<{ requestState: string; key: string }> {
    const first = await callOpen(listener.url, token);
    expect(first.result?.resultType).toBe('input_required');
    const [elicitKey] = Object.keys(first.result!.inputRequests!);
    const second = await callOpen(listener.url, token, { requestState: first.result!.requestState, inputResponses: { [elicitKey]: PASSWORD } });
    expect(second.result?.resultType).toBe('input_required');
    return { requestState: second.result!.requestState!, key: Object.keys(second.result!.inputRequests!)[0] };
  }

  it('carries an earlier answer (a password) in a state nobody can read', async () => {
    const { requestState, key } = await afterPassword('alice');
    const readable = [requestState, ...requestState.split('.').map((part) => Buffer.from(part, 'base64url').toString('latin1'))].join('\n');
    expect(readable).not.toContain(SECRET);
    expect(readable).not.toContain('password');
    // The server itself still reads it: the call completes with the answer of the first round.
    const done = await callOpen(listener.url, 'alice', { requestState, inputResponses: { [key]: REPLY } });
    expect(done.result?.content?.[0].text).toBe(`opened for ${SECRET.length}-character password; the model said please`);
  });

  it("refuses one user's state to another user of the same OAuth client", async () => {
    const { requestState, key } = await afterPassword('alice');
    const stolen = await callOpen(listener.url, 'bob', { requestState, inputResponses: { [key]: REPLY } });
    expect(stolen.error).toMatchObject({ code: -32602, message: expect.stringContaining('belongs to another request or caller') });
    expect(JSON.stringify(stolen)).not.toContain(SECRET);
  });

  it('answers an answer of the wrong shape with -32602 naming the key and field (not an internal error), and serves on', async () => {
    const first = await callOpen(listener.url, 'alice');
    const [key] = Object.keys(first.result!.inputRequests!);
    for (const answer of [{ action: 'maybe' }, { action: 'accept', content: { password: { nested: SECRET } } }, { action: 'accept', content: [SECRET] }]) {
      const round = await callOpen(listener.url, 'alice');
      const refused = await callOpen(listener.url, 'alice', { requestState: round.result!.requestState, inputResponses: { [key]: answer } });
      expect(refused.error).toMatchObject({ code: -32602, message: expect.stringContaining(`inputResponses['${key}'] is not a valid elicitation/create result`) });
      expect(refused.error!.message).toContain('start the call again without requestState');
      expect(JSON.stringify(refused)).not.toMatch(/ at |RoundTripError|internal error/);
    }
    // A decline whose content is null is an answer the SDK takes: the call goes on to its next question.
    const declined = await callOpen(listener.url, 'alice', {
      requestState: (await callOpen(listener.url, 'alice')).result!.requestState,
      inputResponses: { [key]: { action: 'decline', content: null } },
    });
    expect(declined.result?.resultType).toBe('input_required');
  });

  it('refuses a state with a character added or re-encoded as padded base64, though it decodes to the same bytes', async () => {
    for (const edit of [(s: string) => `${s}A`, (s: string) => `${s}=`, (s: string) => `v2.${Buffer.from(s.slice(3), 'base64url').toString('base64')}`]) {
      const first = await callOpen(listener.url, 'alice');
      const [key] = Object.keys(first.result!.inputRequests!);
      const copy = edit(first.result!.requestState!);
      if (copy === first.result!.requestState) continue;
      const answer = await callOpen(listener.url, 'alice', { requestState: copy, inputResponses: { [key]: PASSWORD } });
      expect(answer.error).toMatchObject({ code: -32602 });
    }
  });

  it('binds a caller whose token names no subject to that token', async () => {
    const { requestState, key } = await afterPassword('keyA');
    const other = await callOpen(listener.url, 'keyB', { requestState, inputResponses: { [key]: REPLY } });
    expect(other.error).toMatchObject({ code: -32602 });
    const own = await callOpen(listener.url, 'keyA', { requestState, inputResponses: { [key]: REPLY } });
    expect(own.result?.content?.[0].text).toContain('the model said please');
  });
});
