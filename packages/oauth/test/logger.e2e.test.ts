/**
 * `createOAuthServer({ logger })`: the authorization server's warnings and the failures of its
 * endpoints go to the logger given (the app's, to keep one log), not to the console; the client
 * still gets a plain `server_error`.
 */
import type { ToolLogger } from '@toolwright/core';
import { createOAuthServer, MemoryOAuthStore, oidcUpstream } from '@toolwright/oauth';

interface Line {
  level: string;
  message: string;
}

function recordingLogger(): { lines: Line[]; logger: ToolLogger } {
  const lines: Line[] = [];
  const at = (level: string) => (message: string) => void lines.push({ level, message });
  return { lines, logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') } };
}

/** A store whose writes fail, as a store that lost its connection does. */
class BrokenStore extends MemoryOAuthStore {
  override async set(): Promise<void> {
    throw new Error('the store is unreachable');
  }
}

/** A client registration POSTed to an authorization server on a BrokenStore that logs to `logger`: the registration fails. */
async function registerWithBrokenStore(logger: ToolLogger): Promise<Response | undefined> {
  const oauth = await createOAuthServer({
    issuer: 'http://127.0.0.1:9',
    resource: 'http://127.0.0.1:9/mcp',
    signIn: () => ({ subject: 'u' }),
    store: new BrokenStore(),
    rateLimit: false,
    logger,
  });
  return oauth.handle(
    new Request('http://127.0.0.1:9/register', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:8976/callback'], client_name: 'c' }),
    }),
  );
}

describe('the authorization server logs in the logger it is given', () => {
  let consoleLines: unknown[][];
  let spies: jest.SpyInstance[];
  beforeEach(() => {
    consoleLines = [];
    spies = (['error', 'warn', 'info', 'log'] as const).map((level) => jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleLines.push(args)));
  });
  afterEach(() => spies.forEach((spy) => spy.mockRestore()));

  it('an endpoint that fails: one error line with the reason, server_error on the wire', async () => {
    const { lines, logger } = recordingLogger();
    const response = await registerWithBrokenStore(logger);
    expect(response!.status).toBe(500);
    const body = (await response!.json()) as Record<string, unknown>;
    expect(body.error).toBe('server_error');
    expect(JSON.stringify(body)).not.toContain('the store is unreachable');
    expect(lines).toEqual([{ level: 'error', message: expect.stringMatching(/^toolwright oauth: POST \/register failed: Error: the store is unreachable/) }]);
    expect(consoleLines).toEqual([]);
  });

  it('a logger that throws: the failing endpoint still answers server_error', async () => {
    const throwing: ToolLogger = {
      debug: () => undefined,
      info: () => undefined,
      warn: () => undefined,
      error: () => {
        throw new Error('the log sink is down');
      },
    };
    const response = await registerWithBrokenStore(throwing);
    expect(response!.status).toBe(500);
    expect(((await response!.json()) as Record<string, unknown>).error).toBe('server_error');
  });

  it('upstream sign-in with no secret: the warning in the logger', async () => {
    const { lines, logger } = recordingLogger();
    await createOAuthServer({
      issuer: 'http://127.0.0.1:9',
      resource: 'http://127.0.0.1:9/mcp',
      upstream: oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'a-client-secret' }),
      logger,
    });
    expect(lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^toolwright oauth: upstream tokens and sign-ins are encrypted with a random key made at start \(no secret given\)/) }]);
    expect(consoleLines).toEqual([]);
  });

  it('without a logger: the console, as before', async () => {
    await createOAuthServer({
      issuer: 'http://127.0.0.1:9',
      resource: 'http://127.0.0.1:9/mcp',
      upstream: oidcUpstream({ issuer: 'https://idp.example.com', clientId: 'toolwright', clientSecret: 'a-client-secret' }),
    });
    expect(consoleLines.map(String)).toEqual([expect.stringMatching(/^toolwright oauth: upstream tokens and sign-ins are encrypted/)]);
  });
});
