/**
 * What a hostile client's own text does to OpenTelemetry output: names the app does not serve
 * are one metric series (`_OTHER`), not one each; span names stay low-cardinality; text from
 * the request on spans is bounded, and secrets (headers, secret-looking arguments) stay out.
 * Real SDKs (`@opentelemetry/sdk-metrics`, `sdk-trace-base`), a real server, a real client.
 */
import type { MetricData } from '@opentelemetry/sdk-metrics';
import { Param, Prompt, Resource, Tool } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { useOtelRecorder } from './fixtures/useOtelRecorder';
import { isSecretKey } from '../src/telemetry/isSecretKey';

const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const JSON_RESULT = { '~standard': { version: 1 as const, vendor: 'test', validate: (value: unknown) => ({ value: value as Record<string, unknown> }) } };
const HOSTILE = '\n{"level":"error","msg":"forged"}\u001b[31m\u2028\u202e';

class Echo {
  @Tool({ description: 'Echoes.' })
  echo(@Param('text') text: string) {
    return { text };
  }

  @Resource('file:///{name}')
  file(@Param('name') name: string) {
    return name;
  }

  @Prompt({ description: 'Greets.' })
  greet() {
    return 'hello';
  }
}

describe('OpenTelemetry against hostile names and text', () => {
  const { spans, metrics: metricExporter, reader } = useOtelRecorder();
  let app: App;
  let recording: App;

  beforeAll(async () => {
    app = await createApp({ name: 'otel-hostile', version: '1', tools: [Echo], logger: silent });
    recording = await createApp({ name: 'otel-recording', version: '1', tools: [Echo], logger: silent, telemetry: { recordArguments: true, recordResults: true } });
  });

  const operationPoints = async (): Promise<MetricData['dataPoints']> => {
    await reader.forceFlush();
    const all = metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    return all.filter((m) => m.descriptor.name === 'mcp.server.operation.duration').at(-1)?.dataPoints ?? [];
  };

  it('makes a bounded number of series of 1,000 made-up tools, 200 prompts, 200 methods and 20 clientInfos', async () => {
    const client = await createTestClient(app);
    for (let i = 0; i < 1_000; i++) await expect(client.callTool({ name: `tool-${i}-${Math.random()}${HOSTILE}`, arguments: {} })).rejects.toMatchObject({ code: -32602 });
    for (let i = 0; i < 200; i++) await expect(client.getPrompt({ name: `prompt-${i}${HOSTILE}` })).rejects.toMatchObject({ code: -32602 });
    for (let i = 0; i < 200; i++) await expect(client.request({ method: `made/up-${i}${HOSTILE}` } as never, JSON_RESULT as never)).rejects.toMatchObject({ code: -32601 });
    await client.callTool({ name: 'echo', arguments: { text: 'hi' } });
    await client.close();
    for (let i = 0; i < 20; i++) {
      const other = await createTestClient(app, { clientInfo: { name: `client-${i}${HOSTILE}`, version: `${Math.random()}` } });
      await other.callTool({ name: 'echo', arguments: { text: 'hi' } });
      await other.close();
    }

    const points = await operationPoints();
    // initialize, tools/call echo, tools/call _OTHER, prompts/get _OTHER, _OTHER (the methods): a handful, not 1,400.
    expect(points.length).toBeLessThanOrEqual(10);
    const attributes = points.map((p) => p.attributes);
    expect(attributes).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': '_OTHER', 'error.type': '-32602' }));
    expect(attributes).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'prompts/get', 'gen_ai.prompt.name': '_OTHER' }));
    expect(attributes).toContainEqual(expect.objectContaining({ 'mcp.method.name': '_OTHER', 'error.type': '-32601' }));
    expect(attributes).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'echo' }));
    expect(JSON.stringify(attributes)).not.toMatch(/tool-|prompt-|made\/up|client-/);

    // Span names are low-cardinality too: what the app does not serve is named after the method alone.
    const names = new Set(spans.getFinishedSpans().map((s) => s.name));
    expect([...names].sort()).toEqual(['_OTHER', 'initialize', 'prompts/get', 'tools/call', 'tools/call echo'].sort());
  });

  it('bounds what the request adds to a span (error message, id, URI, arguments, results) and escapes control characters in the status', async () => {
    const client = await createTestClient(recording);
    const long = 'x'.repeat(200_000);
    await expect(client.callTool({ name: `${long}${HOSTILE}`, arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await expect(client.callTool({ name: `short${HOSTILE}`, arguments: {} })).rejects.toMatchObject({ code: -32602 });
    // Refused (over the app's maxUriLength), but its span was started with the URI.
    await expect(client.readResource({ uri: `file:///${long}` })).rejects.toMatchObject({ code: -32602 });
    await client.callTool({ name: 'echo', arguments: { text: long } });
    await client.close();

    const finished = spans.getFinishedSpans();
    for (const span of finished) {
      expect(span.name.length).toBeLessThanOrEqual(64);
      for (const value of Object.values(span.attributes)) expect(String(value).length).toBeLessThanOrEqual(4_096);
      expect(span.status.message?.length ?? 0).toBeLessThanOrEqual(512);
    }
    const unknown = finished.find((s) => s.attributes['gen_ai.tool.name'] === '_OTHER' && s.status.message?.includes('short'))!;
    expect(unknown.name).toBe('tools/call');
    expect(unknown.status.message).toMatch(/\\u000a\{"level":"error"/);
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    expect(unknown.status.message).not.toMatch(/[\n\u001b\u2028\u202e]/);
    expect(String(finished.find((s) => s.name === 'resources/read')!.attributes['mcp.resource.uri'])).toMatch(/^file:\/\/\/x+…$/);
    const echo = finished.find((s) => s.name === 'tools/call echo')!;
    expect(String(echo.attributes['gen_ai.tool.call.arguments'])).toMatch(/^\{"text":"x+…$/);
    expect(String(echo.attributes['gen_ai.tool.call.result'])).toMatch(/xxx…$/);
  });

  it('never records secret-looking arguments, even with recordArguments on', async () => {
    const client = await createTestClient(recording);
    const args = { text: 'visible', apiKey: 'SECRET-1', nested: { access_token: 'SECRET-2', Authorization: 'Bearer SECRET-3', cookie: 'SECRET-4', requestState: 'SECRET-5' }, maxTokens: 7 };
    await client.callTool({ name: 'echo', arguments: args });
    await client.close();
    const recorded = String(spans.getFinishedSpans().find((s) => s.name === 'tools/call echo')!.attributes['gen_ai.tool.call.arguments']);
    expect(JSON.parse(recorded)).toEqual({
      text: 'visible',
      apiKey: '[REDACTED]',
      nested: { access_token: '[REDACTED]', Authorization: '[REDACTED]', cookie: '[REDACTED]', requestState: '[REDACTED]' },
      maxTokens: 7,
    });
  });

  it('never records a secret whose key names it before other words (secret_key, password_confirmation, passphrase)', async () => {
    const client = await createTestClient(recording);
    const secrets = {
      aws_secret_access_key: 'SECRET-1',
      secretKey: 'SECRET-2',
      password_confirmation: 'SECRET-3',
      passwordHash: 'SECRET-4',
      passphrase: 'SECRET-5',
      nested: { client_credentials_json: 'SECRET-6', apiKeyValue: 'SECRET-7', private_key_pem: 'SECRET-8', pwd: 'SECRET-9' },
    };
    await client.callTool({ name: 'echo', arguments: { text: 'visible-keys', ...secrets, tokenCount: 3, max_tokens: 7 } });
    await client.close();
    const recorded = String(
      spans.getFinishedSpans().find((s) => s.name === 'tools/call echo' && String(s.attributes['gen_ai.tool.call.arguments']).includes('visible-keys'))!.attributes['gen_ai.tool.call.arguments'],
    );
    expect(recorded).not.toMatch(/SECRET/);
    expect(JSON.parse(recorded)).toMatchObject({ text: 'visible-keys', aws_secret_access_key: '[REDACTED]', nested: { pwd: '[REDACTED]' }, tokenCount: 3, max_tokens: 7 });
  });

  /** The arguments recorded on the span of one echo call made with `args`. */
  const recordedArguments = async (args: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const client = await createTestClient(recording);
    const marker = `marker-${Math.random()}`;
    await client.callTool({ name: 'echo', arguments: { text: marker, ...args } });
    await client.close();
    const span = spans.getFinishedSpans().find((s) => String(s.attributes['gen_ai.tool.call.arguments']).includes(marker))!;
    return JSON.parse(String(span.attributes['gen_ai.tool.call.arguments'])) as Record<string, unknown>;
  };

  // A secret word matched anywhere in a key hid keys that only name a secret (cookieConsent,
  // secretary), and a word matched only at its end let plurals, `tokenValue` and words outside the list through.
  it('hides a secret whatever form its key takes: plurals, a secret word first, compounds, other secret words', async () => {
    const secrets = {
      tokens: ['SECRET-1'],
      refresh_tokens: 'SECRET-2',
      tokenValue: 'SECRET-3',
      passcode: 'SECRET-4',
      otp: 'SECRET-5',
      bearer: 'SECRET-6',
      jwt: 'SECRET-7',
      accessKey: 'SECRET-8',
      signature: 'SECRET-9',
      'X-API-Key': 'SECRET-10',
      OAuthToken: 'SECRET-11',
      session_id: 'SECRET-12',
      'set-cookie': 'SECRET-13',
      apikey: 'SECRET-14',
      token2: 'SECRET-15',
    };
    const recorded = await recordedArguments(secrets);
    expect(JSON.stringify(recorded)).not.toMatch(/SECRET/);
    expect(Object.keys(recorded).filter((key) => recorded[key] === '[REDACTED]')).toEqual(Object.keys(secrets));
  });

  it('records arguments whose key only names or describes a secret', async () => {
    const plain = {
      cookieConsent: true,
      secretary: 'Ada',
      authorizationUrl: 'https://id.example/authorize',
      passwordPolicy: 'min-12',
      credentialType: 'oauth',
      token_type: 'Bearer',
      inputTokenCount: 12,
      max_output_tokens: 64,
      keyboard: 'dvorak',
      author: 'Grace',
      description: 'a note',
    };
    expect(await recordedArguments(plain)).toEqual({ text: expect.any(String), ...plain });
  });

  // Splitting a key on its case humps found no word in a key written in one case: these were recorded.
  it('hides a secret whose key is written in one case (PGPASSWORD, accesstoken, MYAPIKEY)', async () => {
    const secrets = {
      PGPASSWORD: 'SECRET-1',
      DBPASSWORD: 'SECRET-2',
      AUTHTOKEN: 'SECRET-3',
      accesstoken: 'SECRET-4',
      refreshtoken: 'SECRET-5',
      clientsecret: 'SECRET-6',
      userpassword: 'SECRET-7',
      githubtoken: 'SECRET-8',
      privatekeypem: 'SECRET-9',
      xapikey: 'SECRET-10',
      MYAPIKEY: 'SECRET-11',
      oauthtoken: 'SECRET-12',
    };
    const recorded = await recordedArguments(secrets);
    expect(JSON.stringify(recorded)).not.toMatch(/SECRET/);
    expect(Object.keys(recorded).filter((key) => recorded[key] === '[REDACTED]')).toEqual(Object.keys(secrets));
  });

  // A describing word first excused the key, so the token last in it was recorded.
  it('hides a token whose key starts with a describing word (consentToken, urlToken, usageToken)', async () => {
    const recorded = await recordedArguments({ consentToken: 'SECRET-1', urlToken: 'SECRET-2', usageToken: 'SECRET-3' });
    expect(recorded).toEqual({ text: expect.any(String), consentToken: '[REDACTED]', urlToken: '[REDACTED]', usageToken: '[REDACTED]' });
  });

  it('hides PINs, card numbers, SSNs, wallet seeds and private keys written short', async () => {
    const secrets = { pin: '1234', cvv: '123', cardNumber: '4111111111111111', creditCard: '4111', ssn: '078-05-1120', mnemonic: 'abandon', seedPhrase: 'abandon', privKey: 'k', sshKey: 'k' };
    const recorded = await recordedArguments(secrets);
    expect(Object.keys(recorded).filter((key) => recorded[key] !== '[REDACTED]')).toEqual(['text']);
  });

  // The usage counters of a model's tokens were hidden as if they were tokens.
  it("records the counters of a model's tokens (inputTokens, completionTokens, tokensUsed)", async () => {
    const counters = { inputTokens: 12, outputTokens: 34, promptTokens: 5, completionTokens: 6, cachedTokens: 7, tokensUsed: 8, maxTokens: 9, tokenCount: 10 };
    expect(await recordedArguments(counters)).toEqual({ text: expect.any(String), ...counters });
  });

  it('records no header of an HTTP request (Authorization, Cookie) and bounds the JSON-RPC id', async () => {
    const listener = await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true, requestLogLevel: 'silent', exitOnSignal: false });
    try {
      const response = await fetch(listener.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2025-11-25',
          authorization: 'Bearer HEADER-SECRET',
          cookie: 'sid=COOKIE-SECRET',
          'user-agent': `agent${'u'.repeat(5_000)}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 'i'.repeat(100_000), method: 'tools/call', params: { name: 'echo', arguments: { text: 'hi' } } }),
      });
      expect(response.status).toBe(200);
      await response.text();
    } finally {
      await listener.close();
    }
    const call = spans.getFinishedSpans().find((s) => s.name === 'tools/call echo')!;
    expect(call.attributes['network.protocol.name']).toBe('http');
    expect(String(call.attributes['jsonrpc.request.id']).length).toBeLessThanOrEqual(128);
    const everything = JSON.stringify(spans.getFinishedSpans().map((s) => [s.name, s.attributes, s.status]));
    expect(everything).not.toMatch(/HEADER-SECRET|COOKIE-SECRET|uuuu/);
  });
});

describe('the cost of judging the keys of recorded arguments', () => {
  // Every key of the whole arguments is judged before the JSON is cut to 4 KiB; a key of many
  // one-letter words ('A1A1...') cost its full length (4 MiB of such keys took ~18x the time of
  // stringifying them). A long key is judged by its two ends alone: its cost is bounded.
  it('judges a long key by its ends alone, whatever its middle holds', () => {
    expect(isSecretKey(`${'x'.repeat(2000)}password${'x'.repeat(2000)}`)).toBe(false);
    expect(isSecretKey(`${'A1'.repeat(2000)}_1`)).toBe(false);
  });

  it('still reads both ends of a long key', () => {
    expect(isSecretKey(`${'x'.repeat(5000)}_password`)).toBe(true);
    expect(isSecretKey(`apiKey_${'x'.repeat(5000)}`)).toBe(true);
    expect(isSecretKey(`${'x'.repeat(5000)}_count`)).toBe(false);
  });
});

describe('the keys docs/guide/observability.md gives as examples', () => {
  it('are hidden and recorded as the guide says', () => {
    const hidden = [
      'access_token',
      'refresh_tokens',
      'tokenValue',
      'consentToken',
      'aws_secret_access_key',
      'password_confirmation',
      'AUTHTOKEN',
      'clientsecret',
      'PGPASSWORD',
      'accesstoken',
      'MYAPIKEY',
      'X-API-Key',
      'api_key',
      'apikey',
    ];
    const recorded = ['tokenCount', 'max_tokens', 'inputTokens', 'tokensUsed', 'passwordPolicy', 'authorizationUrl', 'cookieConsent', 'secretary', 'secretariat'];
    expect(hidden.filter((key) => !isSecretKey(key))).toEqual([]);
    expect(recorded.filter((key) => isSecretKey(key))).toEqual([]);
  });

  it('records harmless words that hold a secret word inside another (pinned, opinion, tokenizer, keyword)', () => {
    const harmless = ['query', 'prompt', 'text', 'topic', 'pinned', 'spinner', 'opinion', 'shipping', 'tokenizer', 'secretary', 'keyword', 'secretaryName', 'tokenizerName'];
    expect(harmless.filter((key) => isSecretKey(key))).toEqual([]);
  });
});
