import 'reflect-metadata';
import type { App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import type { HttpListener } from '@toolwright/server/http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, ProgressNotificationSchema, type ElicitRequest } from '@modelcontextprotocol/sdk/types.js';
import { createConformanceApp } from '../src/app';
import { PNG_BASE64, WAV } from '../src/media';
import { answerLikeTheSuite, FULL_CAPABILITIES } from './suiteClient';

describe('examples/conformance: every fixture, exact values (in memory)', () => {
  let app: App;
  let client: Client;
  const forms: ElicitRequest['params'][] = [];

  beforeAll(async () => {
    app = await createConformanceApp();
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'suite-like', version: '1.0.0' }, { capabilities: FULL_CAPABILITIES });
    answerLikeTheSuite(client, forms);
    await Promise.all([app.connect(serverSide), client.connect(clientSide)]);
  });
  afterAll(() => client.close());

  const call = (name: string, args?: Record<string, unknown>) => client.callTool({ name, ...(args && { arguments: args }) });

  it('announces its info, instructions and the capabilities the suite needs', () => {
    expect(client.getServerVersion()).toEqual({
      name: 'toolwright-conformance',
      version: '1.0.0',
      title: 'Toolwright conformance server',
      description: 'Every fixture of the official MCP conformance suite, written with Toolwright decorators.',
      websiteUrl: 'https://github.com/modelcontextprotocol/conformance',
      icons: [{ src: 'https://example.com/toolwright.png', mimeType: 'image/png', sizes: ['48x48'] }],
    });
    expect(client.getInstructions()).toContain('A test server');
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      extensions: { 'io.modelcontextprotocol/skills': { directoryRead: true }, 'io.modelcontextprotocol/tasks': {} },
    });
  });

  it('lists every tool with a description and an object input schema', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'confirm_delete',
        'failing_job',
        'greet',
        'json_schema_2020_12_tool',
        'multi_input',
        'protocol_error_job',
        'slow_compute',
        'test_audio_content',
        'test_custom_headers',
        'test_elicitation',
        'test_elicitation_sep1034_defaults',
        'test_elicitation_sep1330_enums',
        'test_embedded_resource',
        'test_error_handling',
        'test_image_content',
        'test_input_required_result_capabilities',
        'test_input_required_result_elicitation',
        'test_input_required_result_list_roots',
        'test_input_required_result_multi_round',
        'test_input_required_result_multiple_inputs',
        'test_input_required_result_request_state',
        'test_input_required_result_sampling',
        'test_input_required_result_tampered_state',
        'test_logging_tool',
        'test_missing_capability',
        'test_multiple_content_types',
        'test_reconnection',
        'test_sampling',
        'test_simple_text',
        'test_streaming_elicitation',
        'test_tool_with_logging',
        'test_tool_with_progress',
        'test_tool_with_task',
        'test_trigger_prompt_change',
        'test_trigger_tool_change',
      ].sort(),
    );
    for (const t of tools) {
      expect(t.description).toBeTruthy();
      expect(t.inputSchema.type).toBe('object');
    }
    expect(tools.find((t) => t.name === 'test_sampling')!.inputSchema).toEqual({
      type: 'object',
      properties: { prompt: { type: 'string', description: 'The prompt to send' } },
      required: ['prompt'],
      additionalProperties: false,
    });
  });

  it('serves the raw 2020-12 schema unchanged and validates against it', async () => {
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'json_schema_2020_12_tool')!.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { address: { type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } } },
      properties: { name: { type: 'string' }, address: { $ref: '#/$defs/address' } },
      additionalProperties: false,
    });
    const ok = await call('json_schema_2020_12_tool', { name: 'Ann', address: { street: '1 Main St', city: 'Paris' } });
    expect(ok.content).toEqual([{ type: 'text', text: 'Received: {"name":"Ann","address":{"street":"1 Main St","city":"Paris"}}' }]);
    const bad = await call('json_schema_2020_12_tool', { name: 1, extra: true });
    expect(bad.isError).toBe(true);
    expect((bad.content as { text: string }[])[0].text).toBe(
      "Invalid arguments for tool 'json_schema_2020_12_tool':\n- name: must be a string (got number 1)\n- extra: is not allowed (unknown property)",
    );
  });

  it('returns the exact content fixtures', async () => {
    expect((await call('test_simple_text')).content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
    expect((await call('test_image_content', {})).content).toEqual([{ type: 'image', data: PNG_BASE64, mimeType: 'image/png' }]);
    expect((await call('test_audio_content', {})).content).toEqual([{ type: 'audio', data: WAV.toString('base64'), mimeType: 'audio/wav' }]);
    expect(WAV.subarray(0, 4).toString()).toBe('RIFF');
    expect((await call('test_embedded_resource', {})).content).toEqual([
      { type: 'resource', resource: { uri: 'test://embedded-resource', mimeType: 'text/plain', text: 'This is an embedded resource content.' } },
    ]);
    expect((await call('test_multiple_content_types', {})).content).toEqual([
      { type: 'text', text: 'Multiple content types test:' },
      { type: 'image', data: PNG_BASE64, mimeType: 'image/png' },
      { type: 'resource', resource: { uri: 'test://mixed-content-resource', mimeType: 'application/json', text: '{"test":"data","value":123}' } },
    ]);
  });

  it('returns the error fixture as an isError result', async () => {
    expect(await call('test_error_handling', {})).toEqual({ content: [{ type: 'text', text: 'This tool intentionally returns an error for testing' }], isError: true });
  });

  it('logs three info messages on the call, filtered by logging/setLevel', async () => {
    const logs: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(n.params));
    await client.setLoggingLevel('debug');
    expect((await call('test_tool_with_logging', {})).content).toEqual([{ type: 'text', text: 'Logging test completed' }]);
    expect(logs).toEqual([
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution started' },
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool processing data' },
      { level: 'info', logger: 'test_tool_with_logging', data: 'Tool execution completed' },
    ]);
    logs.length = 0;
    await client.setLoggingLevel('warning');
    await call('test_tool_with_logging', {});
    expect(logs).toEqual([]);
  });

  it('reports progress 0, 50, 100 of 100 only when asked to', async () => {
    const progress: unknown[] = [];
    client.setNotificationHandler(ProgressNotificationSchema, (n) => void progress.push(n.params));
    await client.request({ method: 'tools/call', params: { name: 'test_tool_with_progress', arguments: {}, _meta: { progressToken: 'tok-1' } } }, CallToolResultSchema);
    await client.ping(); // a round trip: progress sent before it has arrived
    expect(progress).toEqual([
      { progressToken: 'tok-1', progress: 0, total: 100 },
      { progressToken: 'tok-1', progress: 50, total: 100 },
      { progressToken: 'tok-1', progress: 100, total: 100 },
    ]);
    progress.length = 0;
    expect((await call('test_tool_with_progress', {})).content).toEqual([{ type: 'text', text: 'Progress test completed' }]);
    expect(progress).toEqual([]);
  });

  it('samples the client model with the prompt', async () => {
    expect((await call('test_sampling', { prompt: 'Test prompt for sampling' })).content).toEqual([{ type: 'text', text: 'LLM response: echo(Test prompt for sampling) max=100' }]);
  });

  it('elicits with a DTO form and returns the typed answer', async () => {
    forms.length = 0;
    expect((await call('test_elicitation', { message: 'Please provide your information' })).content).toEqual([
      { type: 'text', text: 'User response: action=accept, content={"username":"ada","email":"ada@example.com"}' },
    ]);
    expect(forms[0]).toEqual({
      mode: 'form',
      message: 'Please provide your information',
      requestedSchema: { type: 'object', properties: { username: { type: 'string' }, email: { type: 'string' } }, required: ['username', 'email'] },
    });
  });

  it('elicits SEP-1034 defaults on every primitive type', async () => {
    forms.length = 0;
    const result = await call('test_elicitation_sep1034_defaults', {});
    expect((result.content as { text: string }[])[0].text).toBe('Elicitation completed: action=accept, content={"name":"John Doe","age":30,"score":95.5,"status":"active","verified":true}');
    expect((forms[0] as { requestedSchema: unknown }).requestedSchema).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'John Doe' },
        age: { type: 'integer', default: 30 },
        score: { type: 'number', default: 95.5 },
        status: { type: 'string', enum: ['active', 'inactive', 'pending'], default: 'active' },
        verified: { type: 'boolean', default: true },
      },
      required: ['name', 'age', 'score', 'status', 'verified'],
    });
  });

  it('elicits SEP-1330 enums as given, and reports a decline', async () => {
    forms.length = 0;
    expect((await call('test_elicitation_sep1330_enums', {})).content).toEqual([{ type: 'text', text: 'Elicitation completed: action=decline, content=none' }]);
    const schema = (forms[0] as { requestedSchema: { properties: Record<string, Record<string, unknown>> } }).requestedSchema;
    expect(schema.properties.untitledSingle).toEqual({ type: 'string', enum: ['option1', 'option2', 'option3'] });
    expect(schema.properties.titledSingle.oneOf).toHaveLength(3);
    expect(schema.properties.titledSingle.enum).toBeUndefined();
    expect(schema.properties.legacyEnum.enumNames).toEqual(['Option One', 'Option Two', 'Option Three']);
    expect(schema.properties.untitledMulti).toEqual({ type: 'array', items: { type: 'string', enum: ['option1', 'option2', 'option3'] } });
    expect((schema.properties.titledMulti.items as { anyOf: unknown[] }).anyOf).toHaveLength(3);
  });

  it('serves the resource fixtures', async () => {
    expect((await client.listResources()).resources.map((r) => r.uri)).toEqual([
      'test://static-text',
      'test://static-binary',
      'test://watched-resource',
      'skill://conformance-review/SKILL.md',
      'skill://release-notes/SKILL.md',
    ]);
    expect(await client.readResource({ uri: 'test://static-text' })).toEqual({
      contents: [{ uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' }],
    });
    expect(await client.readResource({ uri: 'test://static-binary' })).toEqual({ contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }] });
    expect(await client.readResource({ uri: 'test://template/123/data' })).toEqual({
      contents: [{ uri: 'test://template/123/data', mimeType: 'application/json', text: '{"id":"123","templateTest":true,"data":"Data for ID: 123"}' }],
    });
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { uriTemplate: 'test://template/{id}/data', name: 'template_data', description: 'Data for an id', mimeType: 'application/json' },
      { uriTemplate: 'skill://{+path}', name: 'skill_file', description: 'A file of one of the skills this server serves (see skills/list for each skill and its files).' },
    ]);
    expect(await client.subscribeResource({ uri: 'test://watched-resource' })).toEqual({});
    expect(await client.unsubscribeResource({ uri: 'test://watched-resource' })).toEqual({});
  });

  it('serves the prompt fixtures', async () => {
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual([
      'test_input_required_result_prompt',
      'test_simple_prompt',
      'test_prompt_with_arguments',
      'test_prompt_with_embedded_resource',
      'test_prompt_with_image',
    ]);
    expect(prompts.every((p) => p.description)).toBe(true);
    expect(await client.getPrompt({ name: 'test_simple_prompt' })).toEqual({ messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }] });
    expect(await client.getPrompt({ name: 'test_prompt_with_arguments', arguments: { arg1: 'testValue1', arg2: 'testValue2' } })).toEqual({
      messages: [{ role: 'user', content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" } }],
    });
    expect(await client.getPrompt({ name: 'test_prompt_with_embedded_resource', arguments: { resourceUri: 'test://example-resource' } })).toEqual({
      messages: [
        { role: 'user', content: { type: 'resource', resource: { uri: 'test://example-resource', mimeType: 'text/plain', text: 'Embedded resource content for testing.' } } },
        { role: 'user', content: { type: 'text', text: 'Please process the embedded resource above.' } },
      ],
    });
    expect(await client.getPrompt({ name: 'test_prompt_with_image' })).toEqual({
      messages: [
        { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
        { role: 'user', content: { type: 'text', text: 'Please analyze the image above.' } },
      ],
    });
  });

  it('completes arg1 of test_prompt_with_arguments', async () => {
    expect(await client.complete({ ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' }, argument: { name: 'arg1', value: 'test' } })).toEqual({
      completion: { values: ['testValue1', 'test', 'testing'] },
    });
  });
});

describe('examples/conformance: capability checks instead of hangs', () => {
  it('gives a clear tool error to a client without sampling or elicitation', async () => {
    const client = await createTestClient(await createConformanceApp());
    const sampling = await client.callTool({ name: 'test_sampling', arguments: { prompt: 'x' } });
    expect(sampling).toEqual({
      content: [{ type: 'text', text: "'test_sampling' needs to ask the client model (sampling), but the client does not support it (no 'sampling' capability). Use a client that supports it." }],
      isError: true,
    });
    const elicit = await client.callTool({ name: 'test_elicitation', arguments: { message: 'hi' } });
    expect(elicit.isError).toBe(true);
    expect((elicit.content as { text: string }[])[0].text).toContain("no 'elicitation' capability");
    await client.close();
  });
});

describe('examples/conformance: the server over Streamable HTTP', () => {
  it('serves the fixtures over Streamable HTTP, with logs and elicitation on the call stream', async () => {
    const app = await createConformanceApp();
    const listener = (await app.listen({ transport: 'http', port: 0, requestLogLevel: 'silent', exitOnSignal: false })) as HttpListener;
    const client = new Client({ name: 'http-test', version: '1.0.0' }, { capabilities: FULL_CAPABILITIES });
    const forms: ElicitRequest['params'][] = [];
    answerLikeTheSuite(client, forms);
    const logs: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(String(n.params.data)));
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(listener.url)));
      await client.setLoggingLevel('debug');
      await client.callTool({ name: 'test_tool_with_logging', arguments: {} });
      expect(logs).toEqual(['Tool execution started', 'Tool processing data', 'Tool execution completed']);
      const elicited = await client.callTool({ name: 'test_elicitation', arguments: { message: 'over http' } });
      expect((elicited.content as { text: string }[])[0].text).toContain('action=accept');
      expect(forms).toHaveLength(1);
    } finally {
      await client.close();
      await listener.close();
    }
  });
});
