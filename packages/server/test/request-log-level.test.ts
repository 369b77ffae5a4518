/**
 * The HTTP request log has its own levels (`RequestLogLevel`, option `requestLogLevel`),
 * distinct from the MCP log levels of `ctx.log` (core's `LogLevel`, createApp's `logLevel`).
 * `logLevel` on the HTTP options is the deprecated old name and still works.
 */
import { ConfigError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createHttpHandler, type HttpHandlerOptions, type RequestLogLevel } from '@toolwright/server/http';
import { createRequestLogger, requestLogLevelOf } from '../src/http/requestLog';
import { HttpTools } from './fixtures/http.tools';

describe('requestLogLevel', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'request-log', version: '1.0.0', tools: [HttpTools] });
  });

  it("defaults to 'info' and takes requestLogLevel, or the deprecated logLevel", () => {
    expect(requestLogLevelOf({})).toBe('info');
    expect(requestLogLevelOf({ requestLogLevel: 'warn' })).toBe('warn');
    expect(requestLogLevelOf({ logLevel: 'silent' })).toBe('silent');
    expect(requestLogLevelOf({ requestLogLevel: 'error', logLevel: 'error' })).toBe('error');
  });

  it('refuses the two names disagreeing, saying which to keep', () => {
    expect(() => requestLogLevelOf({ requestLogLevel: 'warn', logLevel: 'silent' })).toThrow(ConfigError);
    expect(() => requestLogLevelOf({ requestLogLevel: 'warn', logLevel: 'silent' })).toThrow(/Set requestLogLevel only; logLevel is its deprecated old name/);
  });

  it('refuses an MCP log level, pointing to where that one goes', () => {
    const options = { requestLogLevel: 'warning' as RequestLogLevel };
    expect(() => createHttpHandler(app, options)).toThrow(ConfigError);
    expect(() => createHttpHandler(app, options)).toThrow(
      /requestLogLevel must be one of 'debug', 'info', 'warn', 'error', 'silent', got "warning"\. \(The MCP log level of ctx\.log is createApp's logLevel option\.\)/,
    );
  });

  it('refuses a bad value before serveHttp takes the port', async () => {
    await expect(app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'loud' as RequestLogLevel })).rejects.toThrow(ConfigError);
  });

  it.each<[HttpHandlerOptions, number[]]>([
    [{ requestLogLevel: 'info' }, [200, 404, 500]],
    [{ requestLogLevel: 'warn' }, [404, 500]],
    [{ logLevel: 'warn' }, [404, 500]],
    [{ requestLogLevel: 'error' }, [500]],
    [{ requestLogLevel: 'silent' }, []],
  ])('%j logs the statuses %j', (options, statuses) => {
    const lines: string[] = [];
    const log = createRequestLogger(requestLogLevelOf(options), (line) => lines.push(line));
    for (const status of [200, 404, 500]) log?.({ method: 'POST', path: '/mcp', status, ms: 1 });
    expect(lines.map((line) => (JSON.parse(line) as { status: number }).status)).toEqual(statuses);
  });
});
