/**
 * Numeric and logging options that used to be taken as given are checked at start: a bad value
 * is refused with a ConfigError that names the option, the value and what to write instead,
 * before a port is taken. Good values still serve (through the real SDK client).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ConfigError, type ToolLogger } from '@toolwright/core';
import { createApp, type App, type HttpListenOptions } from '@toolwright/server';
import { checkFetchHandlerOptions, createFetchHandler } from '@toolwright/server/fetch';
import { checkHttpHandlerOptions, createHttpHandler, serveHttp, type HttpHandlerOptions } from '@toolwright/server/http';
import { HttpTools } from './fixtures/http.tools';

const quiet: ToolLogger = { debug() {}, info() {}, warn() {}, error() {} };

describe('endpoint options with a bad number', () => {
  let app: App;
  beforeAll(async () => {
    app = await createApp({ name: 'option-checks', version: '1.0.0', tools: [HttpTools], logger: quiet });
  });

  it.each<[string, HttpHandlerOptions, RegExp]>([
    [
      'a negative maxBodyBytes',
      { maxBodyBytes: -1 },
      /the HTTP option maxBodyBytes must be a positive whole number or Infinity \(bytes\), got -1\. Set it to a number such as maxBodyBytes: 4194304, or leave it out for that default\./,
    ],
    ["a maxBodyBytes of '4mb'", { maxBodyBytes: '4mb' as never }, /maxBodyBytes must be a positive whole number or Infinity \(bytes\), got "4mb"\./],
    ['a maxUrlLength of 0', { maxUrlLength: 0 }, /maxUrlLength must be a positive whole number or Infinity \(characters\), got 0\. Set it to a number such as maxUrlLength: 8192/],
    [
      'a fractional timeouts.bodyMs',
      { timeouts: { bodyMs: 1.5 } },
      /timeouts\.bodyMs must be a whole number from 1 to 2147483647 \(milliseconds\), got 1\.5\. Set it to a number such as bodyMs: 30000/,
    ],
    ['a NaN maxBufferedBytes', { maxBufferedBytes: Number.NaN }, /maxBufferedBytes must be a positive whole number or Infinity \(bytes\), got NaN/],
    ['a negative sseRetryMs', { sseRetryMs: -1 }, /sseRetryMs must be a whole number from 0 to 2147483647 \(milliseconds\), got -1\. Set it to a number such as sseRetryMs: 3000, or leave it out\./],
    [
      'an eventStoreLimits.maxEventsPerSession of -1',
      { eventStoreLimits: { maxEventsPerSession: -1 } },
      /eventStoreLimits\.maxEventsPerSession must be a positive whole number \(events\), got -1\. Set it to a number such as maxEventsPerSession: 1000/,
    ],
    ['a string eventStoreLimits.maxBytesTotal', { eventStoreLimits: { maxBytesTotal: '64mb' as never } }, /eventStoreLimits\.maxBytesTotal must be a positive whole number \(bytes\), got "64mb"/],
    [
      'an initializeRate.burst of 0',
      { sessions: { initializeRate: { burst: 0 } } },
      /sessions\.initializeRate\.burst must be a positive whole number \(initialize requests\), got 0\. Set it to a number such as burst: 30/,
    ],
    [
      'a NaN initializeRate.perMinute',
      { sessions: { initializeRate: { perMinute: Number.NaN } } },
      /sessions\.initializeRate\.perMinute must be a positive number \(initialize requests per minute\), got NaN\. Set it to a number such as perMinute: 120, or leave it out for that default; initializeRate: false turns the limit off\./,
    ],
    [
      'a timeouts.bodyMs past the longest timer (a timer fires after 1 ms then)',
      { timeouts: { bodyMs: 2 ** 31 } },
      /timeouts\.bodyMs must be a whole number from 1 to 2147483647 \(milliseconds\), got 2147483648\./,
    ],
    ['an Infinity timeouts.bodyMs', { timeouts: { bodyMs: Number.POSITIVE_INFINITY } }, /timeouts\.bodyMs must be a whole number from 1 to 2147483647 \(milliseconds\), got Infinity\./],
    [
      "a cors.maxAgeSeconds of '600'",
      { cors: { maxAgeSeconds: '600' as never } },
      /cors\.maxAgeSeconds must be a whole number, 0 or more \(seconds\), got "600"\. Set it to a number such as maxAgeSeconds: 600/,
    ],
  ])('createHttpHandler refuses %s, naming the option and the fix', (_, options, message) => {
    expect(() => createHttpHandler(app, { requestLogLevel: 'silent', ...options })).toThrow(ConfigError);
    expect(() => createHttpHandler(app, { requestLogLevel: 'silent', ...options })).toThrow(message);
  });

  it('createFetchHandler refuses them too (the same endpoint settings)', () => {
    expect(() => createFetchHandler(app, { maxBodyBytes: -1 })).toThrow(/the HTTP option maxBodyBytes must be a positive whole number or Infinity/);
  });

  it('createFetchHandler refuses an option it does not have, naming the nearest, and takes its own logError', () => {
    expect(() => createFetchHandler(app, { alowedHosts: ['mcp.example.com'] } as never)).toThrow(
      'Toolwright: createFetchHandler has no option `alowedHosts` (did you mean `allowedHosts`?). Fix the name or remove it; the options are on the Fetch handler page of the docs.',
    );
    expect(() => createFetchHandler(app, { port: 3000 } as never)).toThrow('createFetchHandler has no option `port`.');
    expect(() => createFetchHandler(app, { logError: () => undefined, allowedHosts: ['mcp.example.com'] })).not.toThrow();
  });

  it('createHttpHandler refuses an option it does not have, a listener option among them, and takes every option of its own', () => {
    expect(() => createHttpHandler(app, { Auth: { jwks: 'x' } } as never)).toThrow(
      'Toolwright: createHttpHandler has no option `Auth` (did you mean `auth`?). Fix the name or remove it; the options are on the Streamable HTTP page of the docs.',
    );
    expect(() => createHttpHandler(app, { port: 3000 } as never)).toThrow('createHttpHandler has no option `port`.');
    expect(() => createHttpHandler(app, { requestLogLevel: 'silent', legacySse: true, eventStoreLimits: {}, httpTransport: 'toolwright', logWrite: () => undefined })).not.toThrow();
  });

  it("an adapter's check names the adapter's call, its page, and takes the adapter's own options", () => {
    const check = { call: 'toolwrightMiddleware (@toolwright/express)', own: ['drainTimeoutMs'], docsPage: 'Express 5' };
    expect(() => checkHttpHandlerOptions({ alowedOrigins: [] }, check)).toThrow(
      'Toolwright: toolwrightMiddleware (@toolwright/express) has no option `alowedOrigins` (did you mean `allowedOrigins`?). Fix the name or remove it; the options are on the Express 5 page of the docs.',
    );
    expect(() => checkHttpHandlerOptions({ drainTimeoutMs: 5, allowedOrigins: [] }, check)).not.toThrow();
    expect(() => checkHttpHandlerOptions({ drainTimeoutMs: 5 })).toThrow('createHttpHandler has no option `drainTimeoutMs`.');
    expect(() =>
      checkFetchHandlerOptions({ drainTimeoutMs: 5, clientAdress: () => undefined }, { call: 'toolwrightMiddleware (@toolwright/hono)', own: ['drainTimeoutMs', 'clientAddress'], docsPage: 'Hono' }),
    ).toThrow(
      'Toolwright: toolwrightMiddleware (@toolwright/hono) has no option `clientAdress` (did you mean `clientAddress`?). Fix the name or remove it; the options are on the Hono page of the docs.',
    );
  });

  it('serveHttp, called without app.listen, refuses an option the listener does not have', async () => {
    await expect(serveHttp(app, { transport: 'http', port: 0, exitOnSignal: false, alowedHosts: [] } as never)).rejects.toThrow(
      'Toolwright: serveHttp has no option `alowedHosts` (did you mean `allowedHosts`?).',
    );
  });

  it.each<[string, Partial<HttpListenOptions>, RegExp]>([
    ['a port above 65535', { port: 70_000 }, /the HTTP option port must be a whole number from 0 to 65535 \(a port number\), got 70000\. Set it to a number such as port: 3000/],
    [
      'a timeouts.headersMs of 0',
      { timeouts: { headersMs: 0 } },
      /timeouts\.headersMs must be a whole number from 1 to 2147483647 \(milliseconds\), got 0\. Set it to a number such as headersMs: 10000/,
    ],
    ['a negative maxConnections', { maxConnections: -5 }, /maxConnections must be a positive whole number or Infinity \(connections\), got -5/],
    ['a negative drainTimeoutMs', { drainTimeoutMs: -1 }, /drainTimeoutMs must be a whole number from 0 to 2147483647 \(milliseconds\), got -1/],
    ['a numeric host', { host: 5 as never }, /the HTTP option host is 5, not a host name or address\. Give one such as host: '127\.0\.0\.1'/],
    ['an empty host', { host: '' }, /the HTTP option host is "", not a host name or address/],
  ])('app.listen refuses %s before it takes a port', async (_, options, message) => {
    await expect(app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent', ...options })).rejects.toThrow(message);
  });

  it.each<[string, unknown, string]>([
    [
      'a misspelt allowedHosts',
      { transport: 'http', port: 0, alowedHosts: ['mcp.example.com'] },
      "Toolwright: app.listen({ transport: 'http' }) has no option `alowedHosts` (did you mean `allowedHosts`?). Fix the name or remove it",
    ],
    ['`Auth` for `auth`', { transport: 'http', port: 0, Auth: {} }, 'has no option `Auth` (did you mean `auth`?)'],
    ['an HTTP option on stdio', { transport: 'stdio', port: 3000 }, "app.listen({ transport: 'stdio' }) has no option `port`. Fix the name or remove it; the options are on the Transports page"],
    ['a prototype-named option', { transport: 'http', port: 0, hasOwnProperty: 1 }, 'has no option `hasOwnProperty`'],
    ['no options at all', undefined, "Toolwright: app.listen takes one options object: app.listen({ transport: 'stdio' }) or app.listen({ transport: 'http', port: 3000 }) (got undefined)."],
    ['no transport', { port: 3000 }, "Toolwright: unknown transport (none given). Use 'stdio' or 'http'."],
  ])('app.listen refuses %s before it starts anything', async (_, options, message) => {
    const failure = await app.listen(options as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(message);
  });

  it('takes a port read from the environment as digits, as node does, and refuses one that is not', async () => {
    const listener = await app.listen({ transport: 'http', port: '0' as never, exitOnSignal: false, requestLogLevel: 'silent' });
    await listener.close();
    await expect(app.listen({ transport: 'http', port: 'eighty' as never, exitOnSignal: false, requestLogLevel: 'silent' })).rejects.toThrow(
      /the HTTP option port must be a whole number from 0 to 65535 \(a port number\), got "eighty"\./,
    );
  });

  it('takes Infinity as no limit where a limit is meant, and cors: null as no CORS', async () => {
    const handler = createHttpHandler(app, {
      requestLogLevel: 'silent',
      maxBodyBytes: Number.POSITIVE_INFINITY,
      maxBufferedBytes: Number.POSITIVE_INFINITY,
      maxUrlLength: Number.POSITIVE_INFINITY,
      cors: null as never,
    });
    await handler.close();
    const listener = await app.listen({ transport: 'http', port: 0, exitOnSignal: false, requestLogLevel: 'silent', maxConnections: Number.POSITIVE_INFINITY });
    await listener.close();
  });

  it('takes good values, and the endpoint serves a real client', async () => {
    const listener = await app.listen({
      transport: 'http',
      port: 0,
      exitOnSignal: false,
      requestLogLevel: 'silent',
      maxBodyBytes: 65_536,
      maxUrlLength: 2048,
      sseRetryMs: 0,
      maxConnections: 16,
      drainTimeoutMs: 0,
      timeouts: { headersMs: 5000, requestMs: 5000, idleMs: 1000, bodyMs: 5000 },
      cors: { maxAgeSeconds: 0 },
      eventStoreLimits: { maxEventsPerSession: 10, maxBytesPerSession: 65_536, maxBytesTotal: 1_048_576 },
      sessions: { initializeRate: { burst: 5, perMinute: 0.5 } },
    });
    const client = new Client({ name: 'checker', version: '1' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      const result = await client.callTool({ name: 'whoami', arguments: { value: 'ok' } });
      expect(result.isError).toBeFalsy();
      expect(JSON.stringify(result.content)).toContain('ok');
    } finally {
      await client.close();
      await listener.close();
    }
  });
});

describe("createApp's logging options", () => {
  it('refuses a logger without warn(), naming the missing method and the fix', async () => {
    const logger = { debug() {}, info() {}, error() {} } as unknown as ToolLogger;
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logger })).rejects.toThrow(ConfigError);
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logger })).rejects.toThrow(
      /`logger` has no warn\(\) method; the framework calls debug, info, warn and error\. Add it \(e\.g\. warn: \(message, data\) => myLog\.warning\(message, data\)\), or leave `logger` out to log to stderr\./,
    );
  });

  it('refuses a logger that is not an object', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logger: 'stderr' as never })).rejects.toThrow(
      /`logger` is a string, not a logger\. Pass an object with debug, info, warn and error methods/,
    );
  });

  it('refuses a listChangedDebounceMs past the longest timer', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], listChangedDebounceMs: 2 ** 31 })).rejects.toThrow(
      /listChangedDebounceMs must be a number of milliseconds from 0 to 2147483647/,
    );
  });

  it('takes console as a logger, and a callable logger with the four methods', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logger: Object.assign(() => undefined, quiet) })).resolves.toBeDefined();
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logger: console })).resolves.toBeDefined();
  });

  it('refuses a logLevel that is not an MCP log level', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], logLevel: 'verbose' as never })).rejects.toThrow(
      /`logLevel` is "verbose", not an MCP log level\. Use one of 'debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency', or leave it out for 'info'\./,
    );
  });

  it('quotes a number given as a string, so the message does not read as if the number were refused', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], pageSize: '10' as never })).rejects.toThrow('pageSize must be a positive integer (items per list page), got "10".');
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], maxLogLength: '4096' as never })).rejects.toThrow('maxLogLength must be a positive integer (characters), got "4096".');
    // An object is named by its type, not as [object Object].
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], maxUriLength: { max: 10 } as never })).rejects.toThrow(
      'maxUriLength must be a positive integer (characters), got a value of type object.',
    );
  });

  it('refuses a negative listChangedDebounceMs, and a pageSize of 0, each with its fix', async () => {
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], listChangedDebounceMs: -1 })).rejects.toThrow(
      /listChangedDebounceMs must be a number of milliseconds from 0 to 2147483647 \(a timer's longest delay\), got -1\. Set e\.g\. listChangedDebounceMs: 50, or leave it out for the default 10\./,
    );
    await expect(createApp({ name: 'l', version: '1', tools: [HttpTools], pageSize: 0 })).rejects.toThrow(
      /pageSize must be a positive integer \(items per list page\), got 0\. Set e\.g\. pageSize: 100, or leave it out to list everything in one page\./,
    );
  });
});

describe("createApp's options: their names, the server info every client checks at initialize, their kinds", () => {
  const tools = [HttpTools];

  it.each<[string, unknown, string]>([
    ['no options at all', undefined, "Toolwright: createApp takes one options object, e.g. createApp({ name: 'weather', version: '1.0.0', tools: [WeatherTools] }) (got undefined)."],
    ['null', null, 'createApp takes one options object'],
    ['a list of classes', [HttpTools], 'createApp takes one options object'],
    [
      'no name',
      { version: '1', tools },
      "Toolwright: createApp's `name` is missing. Clients receive it in serverInfo.name and refuse a server without it: give a non-empty string, e.g. name: 'weather'.",
    ],
    ['an empty name', { name: '', version: '1', tools }, "createApp's `name` is an empty string."],
    ['a blank name', { name: ' ', version: '1', tools }, "createApp's `name` is blank."],
    ['a numeric version', { name: 'n', version: 1, tools }, "createApp's `version` is the number 1, not a string. Clients receive it in serverInfo.version"],
    ['a null version', { name: 'n', version: null, tools }, "createApp's `version` is null, not a string."],
    ['a numeric websiteUrl', { name: 'n', version: '1', tools, websiteUrl: 5 }, "Toolwright: createApp's option websiteUrl is a number, not a string. Clients check the server's info"],
    ['an icon without src', { name: 'n', version: '1', tools, icons: [{ mimeType: 'image/png' }] }, "createApp's option icons[0].src is missing (an icon needs its URL)."],
    ['icons as a string', { name: 'n', version: '1', tools, icons: 'logo.png' }, "createApp's option icons is a string, not an array."],
    ['instructions as a list', { name: 'n', version: '1', tools, instructions: ['be brief'] }, "createApp's option instructions is an array, not a string."],
  ])('refuses %s before building anything, naming the option and the fix', async (_, options, message) => {
    const failure = await createApp(options as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(message);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a misspelt option', { timeoutMS: 5000 }, 'Toolwright: createApp has no option `timeoutMS` (did you mean `timeoutMs`?). Fix the name or remove it'],
    ['`tool` for `tools`', { tool: [HttpTools] }, 'createApp has no option `tool` (did you mean `tools`?)'],
    ['two unknown options, one near none', { pagesize: 10, frobnicate: true }, 'createApp has no option `pagesize` (did you mean `pageSize`?), `frobnicate`. Fix the name'],
    ['an inherited-looking name', { constructor: 1 }, 'createApp has no option `constructor`'],
    ["coerce: 'yes'", { coerce: 'yes' }, 'Toolwright: createApp\'s `coerce` is the string "yes", not a boolean. Write e.g. coerce: true, or leave it out.'],
    ["onStart: 'init'", { onStart: 'init' }, 'createApp\'s `onStart` is the string "init", not a function.'],
    ['onShutdown as a list', { onShutdown: [() => undefined] }, "createApp's `onShutdown` is an array, not a function."],
    ['a numeric cwd', { cwd: 5 }, "createApp's `cwd` is the number 5, not a string."],
    ['a numeric cache', { cache: 5 }, "createApp's `cache` is the number 5, not an object."],
    ["telemetry: 'on'", { telemetry: 'on' }, 'createApp\'s `telemetry` is the string "on", not an object. Write e.g. telemetry: { recordArguments: true }'],
    ['requestState as a key', { requestState: 'k' }, 'createApp\'s `requestState` is the string "k", not an object.'],
    ['oauth: true', { oauth: true }, "createApp's `oauth` is the boolean true, not an object."],
    ['services: [42]', { services: [42] }, "createApp's `services[0]` is the number 42, not a class."],
    ['services: [undefined] (a circular import)', { services: [HttpTools, undefined] }, '`services[1]` is undefined, not a class.'],
  ])('refuses %s, naming it and the fix', async (_, extra, message) => {
    const failure = await createApp({ name: 'n', version: '1', tools, ...extra } as never).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ConfigError);
    expect((failure as Error).message).toContain(message);
  });

  it('takes the optional fields with their types, and a real client receives them', async () => {
    const icons = [{ src: 'https://example.com/logo.png', mimeType: 'image/png', sizes: ['48x48'] }];
    const app = await createApp({ name: 'info', version: '2.0.0', title: 'Info', description: 'd', websiteUrl: 'https://example.com', icons, instructions: 'be brief', tools, logger: quiet });
    const client = new Client({ name: 'checker', version: '1' });
    const fetch = app.fetch;
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), { fetch: (url, init) => fetch(new Request(url, init)) }));
      expect(client.getServerVersion()).toEqual({ name: 'info', version: '2.0.0', title: 'Info', description: 'd', websiteUrl: 'https://example.com', icons });
      expect(client.getInstructions()).toBe('be brief');
    } finally {
      await client.close();
    }
  });
});
