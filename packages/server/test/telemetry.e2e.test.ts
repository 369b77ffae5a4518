import { Client as ModernClient, StreamableHTTPClientTransport as ModernHttp } from '@modelcontextprotocol/client';
import { propagation, trace, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { DataPointType } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Param, Prompt, Resource, Tool, ToolError } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import type { HttpListener } from '@toolwright/server/http';
import { createTestClient } from '@toolwright/server/testing';
import { Telemetry } from '../src/telemetry/Telemetry';
import { useOtelRecorder } from './fixtures/useOtelRecorder';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

class Weather {
  @Tool({ description: 'Current weather.', annotations: { readOnlyHint: true } })
  getWeather(@Param('city') city: string) {
    // Spans the tool makes are children of the request's span.
    trace.getTracer('weather-test').startActiveSpan('lookup', (span: Span) => span.end());
    return { city, temperature: 21 };
  }

  @Tool({ description: 'Fails as the model should see.' })
  refuse() {
    throw new ToolError('no forecast for Atlantis');
  }

  @Resource('weather://stations')
  stations() {
    return 'a, b';
  }

  @Prompt({ description: 'Brief.' })
  brief(@Param('city') city: string) {
    return `Weather brief for ${city}`;
  }
}

const spanNamed = (spans: ReadableSpan[], name: string) => {
  const span = spans.find((s) => s.name === name);
  if (!span) throw new Error(`no span '${name}' among ${spans.map((s) => s.name).join(', ')}`);
  return span;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

describe('OpenTelemetry, with a tracer and a meter provider registered', () => {
  const { spans: exporter, metrics: metricExporter, reader } = useOtelRecorder();
  let app: App;

  beforeAll(async () => {
    app = await createApp({ name: 'otel', version: '1', tools: [Weather], logger: silent });
  });
  afterAll(() => propagation.disable());

  it('makes a SERVER span per request, named and attributed per the MCP conventions, parented on params._meta (2025 era, in memory)', async () => {
    const client = await createTestClient(app);
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' }, _meta: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' } });
    await client.callTool({ name: 'refuse', arguments: {} });
    await client.readResource({ uri: 'weather://stations' });
    await client.getPrompt({ name: 'brief', arguments: { city: 'Rome' } });
    await client.listTools();
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    await client.close();

    const spans = exporter.getFinishedSpans();
    expect(spans.map((s) => s.name)).toEqual(
      expect.arrayContaining(['initialize', 'tools/call get_weather', 'tools/call refuse', 'resources/read', 'prompts/get brief', 'tools/list', 'tools/call', 'lookup']),
    );

    const call = spanNamed(spans, 'tools/call get_weather');
    expect(call.kind).toBe(1); // SpanKind.SERVER
    expect(call.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(call)).toBe(PARENT_ID);
    expect(call.parentSpanContext?.traceState?.get('rojo')).toBe('00f067aa0ba902b7');
    expect(call.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
      'jsonrpc.request.id': expect.any(String),
    });
    expect(call.status.code).toBe(0);
    // The tool's own span is a child of the request's.
    const lookup = spanNamed(spans, 'lookup');
    expect(parentOf(lookup)).toBe(call.spanContext().spanId);
    expect(lookup.spanContext().traceId).toBe(TRACE_ID);

    const refused = spanNamed(spans, 'tools/call refuse');
    expect(refused.attributes['error.type']).toBe('tool_error');
    expect(refused.status).toEqual({ code: 2, message: 'no forecast for Atlantis' });
    expect(parentOf(refused)).toBeUndefined();

    expect(spanNamed(spans, 'resources/read').attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'weather://stations' });
    expect(spanNamed(spans, 'prompts/get brief').attributes).toMatchObject({ 'gen_ai.prompt.name': 'brief' });
    expect(spanNamed(spans, 'prompts/get brief').attributes['gen_ai.operation.name']).toBeUndefined();
    // A tool the app does not serve is '_OTHER' (names from the wire would make a series each); the status message says which.
    const unknown = spanNamed(spans, 'tools/call');
    expect(unknown.attributes).toMatchObject({ 'gen_ai.tool.name': '_OTHER', 'error.type': '-32602', 'rpc.response.status_code': '-32602' });
    expect(unknown.status.message).toMatch(/nope/);
    expect(unknown.status.code).toBe(2);
    // Arguments and results stay out unless the app opts in.
    expect(JSON.stringify(spans.map((s) => s.attributes))).not.toContain('Oslo');
  });

  it('records mcp.server.operation.duration and, when a session closes, mcp.server.session.duration', async () => {
    const client = await createTestClient(app);
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await client.callTool({ name: 'refuse', arguments: {} });
    await client.close();
    await reader.forceFlush();
    const all = metricExporter.getMetrics().flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const latest = (name: string) => all.filter((m) => m.descriptor.name === name).at(-1)!;
    const operation = latest('mcp.server.operation.duration');
    expect(operation.descriptor.unit).toBe('s');
    expect(operation.dataPointType).toBe(DataPointType.HISTOGRAM);
    const points = operation.dataPoints.map((p) => p.attributes);
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'refuse', 'error.type': 'tool_error' }));
    expect(points).toContainEqual(expect.objectContaining({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'get_weather' }));
    // No high-cardinality attributes on metrics.
    expect(points.some((p) => 'jsonrpc.request.id' in p || 'mcp.session.id' in p)).toBe(false);
    const session = latest('mcp.server.session.duration');
    expect(session.dataPoints[0].attributes).toMatchObject({ 'mcp.protocol.version': '2025-11-25', 'network.transport': 'pipe' });
  });

  it('records arguments and results only when the app opts in', async () => {
    const verbose = await createApp({ name: 'otel', version: '1', tools: [Weather], logger: silent, telemetry: { recordArguments: true, recordResults: true } });
    const client = await createTestClient(verbose);
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await client.close();
    const call = spanNamed(exporter.getFinishedSpans(), 'tools/call get_weather');
    expect(JSON.parse(call.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ city: 'Oslo' });
    expect(JSON.parse(call.attributes['gen_ai.tool.call.result'] as string)).toEqual([{ type: 'text', text: '{"city":"Oslo","temperature":21}' }]);
  });

  it('does nothing when telemetry is turned off or the API is missing', async () => {
    const off = await createApp({ name: 'otel', version: '1', tools: [Weather], logger: silent, telemetry: { enabled: false } });
    // The untraced server class: no tracing subclass between Toolwright's server and the SDK's.
    expect(off.createServer().constructor.name).toBe('ToolwrightServer');
    const client = await createTestClient(off);
    await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' } });
    await client.close();
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['lookup']);
    expect(new Telemetry({}, () => undefined).instruments()).toBeUndefined();
    expect(app.createServer().constructor.name).toBe('TracedServer');
  });

  describe('over HTTP, 2026-07-28 era', () => {
    let listener: HttpListener;
    beforeAll(async () => {
      propagation.setGlobalPropagator(new W3CTraceContextPropagator());
      listener = await app.listen({ transport: 'http', port: 0, logLevel: 'silent', exitOnSignal: false });
    });
    afterAll(async () => {
      propagation.disable();
      await listener.close();
    });

    it('traces each request with the modern protocol version, parented on _meta, else the traceparent header', async () => {
      const headerTraceId = 'aaaabbbbccccddddeeeeffff00001111';
      const client = new ModernClient({ name: 'modern', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await client.connect(new ModernHttp(new URL(`http://127.0.0.1:${listener.port}/mcp`), { requestInit: { headers: { traceparent: `00-${headerTraceId}-1111222233334444-01` } } }));
      try {
        await client.callTool({ name: 'get_weather', arguments: { city: 'Lima' }, _meta: { traceparent: TRACEPARENT } });
        await client.getPrompt({ name: 'brief', arguments: { city: 'Rome' } });
      } finally {
        await client.close();
      }
      const spans = exporter.getFinishedSpans();
      const call = spanNamed(spans, 'tools/call get_weather');
      expect(call.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
      expect(call.spanContext().traceId).toBe(TRACE_ID);
      expect(parentOf(call)).toBe(PARENT_ID);
      const prompt = spanNamed(spans, 'prompts/get brief');
      expect(prompt.spanContext().traceId).toBe(headerTraceId);
      expect(parentOf(prompt)).toBe('1111222233334444');
    });
  });
});
