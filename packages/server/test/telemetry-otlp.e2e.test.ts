import { Client as LegacyClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as LegacyStdio } from '@modelcontextprotocol/sdk/client/stdio.js';
import { createServer as createHttpServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { waitFor } from './fixtures/waitFor';

/** OpenTelemetry over a real process (fixtures/otlp-app.js), apart from telemetry.e2e.test.ts so that file stays in the fast loop. */
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;

describe('OpenTelemetry end to end: a stdio server exporting OTLP/HTTP (JSON) to a collector', () => {
  const received: { path?: string; type?: string; body: OtlpBody }[] = [];
  const collector = createHttpServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url, type: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpBody });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  type OtlpSpan = { name: string; kind: number; traceId: string; parentSpanId: string; attributes: { key: string; value: { stringValue?: string } }[] };
  type OtlpBody = { resourceSpans: { scopeSpans: { scope: { name: string }; spans: OtlpSpan[] }[] }[] };
  const spans = () => received.flatMap((r) => r.body.resourceSpans.flatMap((rs) => rs.scopeSpans.filter((s) => s.scope.name === '@toolwright/server').flatMap((s) => s.spans)));

  beforeAll(() => new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve)));
  afterAll(() => new Promise((resolve) => collector.close(resolve)));

  it('delivers the tool call span with its name and attributes', async () => {
    const { port } = collector.address() as AddressInfo;
    const client = new LegacyClient({ name: 'otlp-test', version: '1' });
    await client.connect(
      new LegacyStdio({
        command: process.execPath,
        args: [join(__dirname, 'fixtures', 'otlp-app.js')],
        env: { ...process.env, OTLP_URL: `http://127.0.0.1:${port}/v1/traces` } as Record<string, string>,
        stderr: 'ignore',
      }),
    );
    try {
      await client.callTool({ name: 'get_weather', arguments: { city: 'Oslo' }, _meta: { traceparent: TRACEPARENT } });
      await waitFor(() => spans().some((s) => s.name === 'tools/call get_weather'), 'the span at the collector', { timeoutMs: 5000 });
    } finally {
      await client.close();
    }
    expect(received[0]).toMatchObject({ path: '/v1/traces', type: 'application/json' });
    const call = spans().find((s) => s.name === 'tools/call get_weather');
    expect(call).toBeDefined();
    expect(call!.kind).toBe(2); // OTLP SPAN_KIND_SERVER
    expect(call!.traceId).toBe(TRACE_ID);
    expect(call!.parentSpanId).toBe(PARENT_ID);
    const attributes = Object.fromEntries(call!.attributes.map((a) => [a.key, a.value.stringValue]));
    expect(attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'get_weather',
      'gen_ai.operation.name': 'execute_tool',
      'mcp.protocol.version': '2025-11-25',
      'network.transport': 'pipe',
    });
  });
});
