import { Param, Prompt, RequireRoles, RequireScopes, Resource, Tool, UseGuards, type AuthInfo } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ERAS, type Era } from './fixtures/eras';
import { messagesOf, openRawSession, post } from './fixtures/httpHelpers';

/**
 * Issue 31 item 5: a member hidden from a caller by its scopes, roles or guards used to answer
 * "requires the scope(s) 'admin'" (or "a guard refused it", or HTTP 403 naming the scope) where
 * a name the server does not serve answered "Unknown tool", so any caller could enumerate what
 * is hidden from it. Now the hidden one's answer is the unknown one's, byte for byte but for
 * the name, on every method, transport and era; `createApp({ scopeHints: true })` opts in to
 * HTTP 403 `insufficient_scope` for step-up authorization.
 */
const never = () => false;
const who = { complete: () => ['ann', 'bob'] };

class Members {
  @Tool({ description: 'Open to all.' })
  open() {
    return 'open';
  }

  @RequireScopes('admin')
  @Tool({ name: 'tool_scope', description: 'Needs a scope.' })
  toolScope() {
    return 'scope';
  }

  @RequireRoles('ops')
  @Tool({ name: 'tool_role', description: 'Needs a role.' })
  toolRole() {
    return 'role';
  }

  @UseGuards(never)
  @Tool({ name: 'tool_guard', description: 'Guarded.' })
  toolGuard() {
    return 'guard';
  }

  @RequireScopes('admin')
  @Prompt({ name: 'prompt_scope', description: 'Needs a scope.' })
  promptScope(@Param('who', who) name: string) {
    return `Hello ${name}`;
  }

  @RequireRoles('ops')
  @Prompt({ name: 'prompt_role', description: 'Needs a role.' })
  promptRole(@Param('who', who) name: string) {
    return `Hello ${name}`;
  }

  @UseGuards(never)
  @Prompt({ name: 'prompt_guard', description: 'Guarded.' })
  promptGuard(@Param('who', who) name: string) {
    return `Hello ${name}`;
  }

  @RequireScopes('admin')
  @Resource('hidden://scope')
  staticScope() {
    return 'scope';
  }

  @RequireRoles('ops')
  @Resource('hidden://role')
  staticRole() {
    return 'role';
  }

  @UseGuards(never)
  @Resource('hidden://guard')
  staticGuard() {
    return 'guard';
  }

  @RequireScopes('admin')
  @Resource('scope://{id}')
  templateScope(@Param('id', who) id: string) {
    return id;
  }

  @RequireRoles('ops')
  @Resource('role://{id}')
  templateRole(@Param('id', who) id: string) {
    return id;
  }

  @UseGuards(never)
  @Resource('guard://{id}')
  templateGuard(@Param('id', who) id: string) {
    return id;
  }
}

type Request = { method: string; params: Record<string, unknown> };
/** One probe: a request for a hidden member and the same request for a name nothing serves, and the name in each. */
interface Probe {
  readonly what: string;
  readonly hidden: [Request, string];
  readonly unknown: [Request, string];
  /** Methods the 2026-07-28 era no longer has are left out there. */
  readonly legacyOnly?: boolean;
}

const call = (name: string): [Request, string] => [{ method: 'tools/call', params: { name, arguments: {} } }, name];
const getPrompt = (name: string): [Request, string] => [{ method: 'prompts/get', params: { name, arguments: { who: 'ann' } } }, name];
const read = (uri: string, name = uri): [Request, string] => [{ method: 'resources/read', params: { uri } }, name];
const subscribe = (uri: string, name = uri): [Request, string] => [{ method: 'resources/subscribe', params: { uri } }, name];
const completePrompt = (name: string): [Request, string] => [{ method: 'completion/complete', params: { ref: { type: 'ref/prompt', name }, argument: { name: 'who', value: 'a' } } }, name];
const completeResource = (uri: string): [Request, string] => [{ method: 'completion/complete', params: { ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: 'a' } } }, uri];

const PROBES: Probe[] = (['scope', 'role', 'guard'] as const).flatMap((by): Probe[] => [
  { what: `a tool hidden by its ${by}`, hidden: call(`tool_${by}`), unknown: call('tool_nope') },
  { what: `a prompt hidden by its ${by}`, hidden: getPrompt(`prompt_${by}`), unknown: getPrompt('prompt_nope') },
  { what: `a static resource hidden by its ${by}`, hidden: read(`hidden://${by}`), unknown: read('hidden://nope') },
  { what: `a template hidden by its ${by}`, hidden: read(`${by}://ann`, `${by}://`), unknown: read('nope://ann', 'nope://') },
  { what: `a subscription to a static resource hidden by its ${by}`, hidden: subscribe(`hidden://${by}`), unknown: subscribe('hidden://nope'), legacyOnly: true },
  { what: `a subscription to a template hidden by its ${by}`, hidden: subscribe(`${by}://ann`, `${by}://`), unknown: subscribe('nope://ann', 'nope://'), legacyOnly: true },
  { what: `completing a prompt hidden by its ${by}`, hidden: completePrompt(`prompt_${by}`), unknown: completePrompt('prompt_nope') },
  { what: `completing a static resource hidden by its ${by}`, hidden: completeResource(`hidden://${by}`), unknown: completeResource('hidden://nope') },
  { what: `completing a template hidden by its ${by}`, hidden: completeResource(`${by}://{id}`), unknown: completeResource('nope://{id}') },
]);

/** A token without the scope 'admin' or the role 'ops'; the guard refuses everyone. */
const PLAIN: AuthInfo = { token: 'plain', clientId: 'client', scopes: ['notes'], extra: { sub: 'user-1' } };
const CALLERS: [string, AuthInfo | undefined][] = [
  ['a caller without the rule', PLAIN],
  ['an anonymous caller', undefined],
];

/** An answer with every occurrence of the asked-for name replaced: what must be equal. */
const withoutName = (answer: unknown, name: string) => JSON.stringify(answer).split(name).join('<name>');

/** An in-memory connection of one era (a 2025-era one initialized), answering raw JSON-RPC requests. */
async function inMemory(app: App, era: Era, authInfo: AuthInfo | undefined) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<string | number, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => {
    const id = (message as { id?: string | number }).id;
    if (id !== undefined) waiting.get(id)?.(message);
  };
  await app.createServer({ era: era.modern ? 'modern' : 'legacy', authInfo }).connect(serverSide);
  await clientSide.start();
  let next = 0;
  const send = (message: Record<string, unknown>): Promise<JSONRPCMessage> => {
    const id = (message.id as string | number | undefined) ?? `r${next++}`;
    const answered = new Promise<JSONRPCMessage>((resolve) => waiting.set(id, resolve));
    void clientSide.send(era.request({ jsonrpc: '2.0', ...message, id }) as JSONRPCMessage);
    return answered;
  };
  for (const opening of era.stdioOpening) {
    if ('id' in opening) await send(opening);
    else await clientSide.send(opening as JSONRPCMessage);
  }
  return { send, close: () => clientSide.close() };
}

describe('issue 31: a hidden member answers exactly as an unknown one', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'hidden', version: '1', tools: [Members], logger: silentLogger() });
  });

  describe.each(ERAS.map((era) => [era.name, era] as const))('in memory (as over stdio), %s', (_, era) => {
    it.each(CALLERS)('for %s: tools, prompts, resources, templates, subscriptions and completions', async (__, caller) => {
      const connection = await inMemory(app, era, caller);
      for (const { what, hidden, unknown, legacyOnly } of PROBES) {
        if (legacyOnly && era.modern) continue;
        const [hiddenAnswer, unknownAnswer] = [await connection.send({ id: 7, ...hidden[0] }), await connection.send({ id: 7, ...unknown[0] })];
        expect({ what, answer: withoutName(hiddenAnswer, hidden[1]) }).toEqual({ what, answer: withoutName(unknownAnswer, unknown[1]) });
        expect({ what, isError: 'error' in hiddenAnswer }).toEqual({ what, isError: true });
      }
      await connection.close();
    });
  });

  describe('over HTTP', () => {
    let listener: HttpListener;
    beforeAll(async () => {
      listener = await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, auth: authOptions() });
    });
    afterAll(() => listener.close());

    describe.each(ERAS.map((era) => [era.name, era] as const))('%s', (_, era) => {
      it.each(CALLERS)('for %s: the same status, headers and body', async (__, caller) => {
        const bearer: Record<string, string> = caller ? { authorization: `Bearer ${caller.token}` } : {};
        const session: Record<string, string> = era.modern ? {} : { 'mcp-session-id': await openRawSession(listener.url, bearer), 'mcp-protocol-version': era.version };
        const ask = async ([request]: [Request, string]) => {
          const message = era.request({ jsonrpc: '2.0', id: 7, ...request });
          const response = await post(listener.url, message, { ...bearer, ...session, ...era.headers(message) });
          return { status: response.status, challenge: response.headers.get('www-authenticate'), type: response.headers.get('content-type'), messages: await messagesOf(response) };
        };
        for (const { what, hidden, unknown, legacyOnly } of PROBES) {
          if (legacyOnly && era.modern) continue;
          const [hiddenAnswer, unknownAnswer] = [await ask(hidden), await ask(unknown)];
          expect({ what, answer: withoutName(hiddenAnswer, hidden[1]) }).toEqual({ what, answer: withoutName(unknownAnswer, unknown[1]) });
          expect({ what, status: hiddenAnswer.status, isError: 'error' in hiddenAnswer.messages[0] }).toEqual({ what, status: 200, isError: true });
        }
      });
    });
  });

  describe('with scopeHints: true (step-up authorization)', () => {
    let hinting: App;
    let listener: HttpListener;
    beforeAll(async () => {
      hinting = await createApp({ name: 'hints', version: '1', tools: [Members], scopeHints: true, logger: silentLogger() });
      listener = await hinting.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false, auth: authOptions() });
    });
    afterAll(() => listener.close());

    it.each(ERAS.map((era) => [era.name, era] as const))('answers a call missing scopes with 403 insufficient_scope naming them, %s', async (_, era) => {
      const message = era.request({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'tool_scope', arguments: {} } });
      const session: Record<string, string> = era.modern ? {} : { 'mcp-session-id': await openRawSession(listener.url, { authorization: 'Bearer plain' }), 'mcp-protocol-version': era.version };
      const refused = await post(listener.url, message, { authorization: 'Bearer plain', ...session, ...era.headers(message) });
      expect(refused.status).toBe(403);
      expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope", .*scope="notes admin"/);
      await refused.text();
      // An anonymous caller is told to authenticate.
      const anonymous = await post(listener.url, message, {
        ...(era.modern ? {} : { 'mcp-session-id': await openRawSession(listener.url), 'mcp-protocol-version': era.version }),
        ...era.headers(message),
      });
      expect(anonymous.status).toBe(401);
      await anonymous.text();
    });

    it('quotes only the scopes that are scope tokens: a verifier scope with a quote or a line break cannot break the challenge', async () => {
      const odd = await createApp({ name: 'odd', version: '1', tools: [Members], scopeHints: true, logger: silentLogger() });
      const oddCaller: AuthInfo = { ...PLAIN, token: 'odd', scopes: ['notes', 'x"y', 'line\r\nbreak'] };
      const l = await odd.listen({
        transport: 'http',
        port: 0,
        requestLogLevel: 'silent',
        exitOnSignal: false,
        auth: { ...authOptions(), verifyToken: (token: string) => (token === 'odd' ? oddCaller : undefined) },
      });
      try {
        const message = { jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'tool_scope', arguments: {} } };
        const session = await openRawSession(l.url, { authorization: 'Bearer odd' });
        const refused = await post(l.url, message, { authorization: 'Bearer odd', 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' });
        expect(refused.status).toBe(403);
        expect(refused.headers.get('www-authenticate')).toMatch(/ scope="notes admin",/);
        await refused.text();
      } finally {
        await l.close();
      }
    });
  });
});

function authOptions() {
  return {
    verifyToken: (token: string): AuthInfo | undefined => (token === PLAIN.token ? PLAIN : undefined),
    authorizationServers: ['https://auth.example.com'],
    allowAnonymous: true,
  };
}

function silentLogger() {
  const nothing = () => undefined;
  return { debug: nothing, info: nothing, warn: nothing, error: nothing };
}
