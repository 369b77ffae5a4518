import { Ctx, Tool, type ToolContext } from '@toolwright/core';
import { createApp, type App } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { useOtelRecorder } from './fixtures/useOtelRecorder';
import { waitFor } from './fixtures/waitFor';

/**
 * A call the client cancels (`notifications/cancelled`, sent by the SDK v2 client when its
 * signal aborts) is recorded as cancelled: `error.type` 'cancelled', the span's status unset,
 * no `rpc.response.status_code` (nothing answered it), whatever the tool did after the cancel.
 * Before, a tool waiting on ctx.elicit was recorded as -32603, as if the server had failed; a
 * tool that rejected with its signal's reason as a tool_error; one that finished anyway as a
 * success whose result nobody received.
 */
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
const FORM = { type: 'object', properties: { name: { type: 'string' } } } as const;

class Cancellable {
  @Tool({ description: 'Asks the user, who never answers.' })
  async asks(@Ctx() ctx: ToolContext) {
    return (await ctx.elicit('Who?', FORM)).action;
  }

  @Tool({ description: 'Waits until its call ends, and rejects with why.' })
  async waits(@Ctx() ctx: ToolContext) {
    await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
  }

  @Tool({ description: 'Finishes its work after its call was cancelled, as if it had not heard.' })
  async finishes(@Ctx() ctx: ToolContext) {
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
    return 'done';
  }
}

describe('OpenTelemetry: a call the client cancels', () => {
  const { spans: exporter, reader } = useOtelRecorder();
  let app: App;

  beforeAll(async () => {
    app = await createApp({ name: 'otel', version: '1', tools: [Cancellable], logger: silent });
  });

  test.each(['memory', 'http'] as const)('is recorded as cancelled, not as a server error (%s)', async (transport) => {
    const client = await createTestClient(app, { transport, elicitation: () => new Promise<never>(() => undefined) });
    try {
      for (const name of ['asks', 'waits', 'finishes']) {
        const abort = new AbortController();
        const called = client.callTool({ name, arguments: {} }, { signal: abort.signal });
        // Cancelled once it runs (a fixed wait lost the race on a loaded machine: the call had not begun, or had ended).
        await waitFor(() => app.inFlight === 1, `the call to ${name} to run`);
        abort.abort('the user moved on');
        await expect(called).rejects.toThrow();
        await waitFor(() => app.inFlight === 0, `the call to ${name} to end`);
      }
      const spans = await waitFor(() => {
        const calls = exporter.getFinishedSpans().filter((span) => span.name.startsWith('tools/call'));
        return calls.length === 3 ? calls : undefined;
      }, 'the spans of the three cancelled calls');
      for (const span of spans) {
        expect({ name: span.name, errorType: span.attributes['error.type'], statusCode: span.attributes['rpc.response.status_code'], status: span.status }).toEqual({
          name: span.name,
          errorType: 'cancelled',
          statusCode: undefined,
          status: { code: 0 },
        });
      }
      expect(await client.ping()).toEqual({});
    } finally {
      await client.close();
    }

    await reader.forceFlush();
    const collected = await reader.collect();
    const duration = collected.resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'mcp.server.operation.duration');
    const calls = duration!.dataPoints.map((p) => p.attributes).filter((a) => a['mcp.method.name'] === 'tools/call');
    // One series per tool and transport; every one of them cancelled.
    expect([...new Set(calls.map((a) => a['error.type']))]).toEqual(['cancelled']);
  });
});
