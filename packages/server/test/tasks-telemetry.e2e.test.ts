import { context, trace, type Span } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Ctx, Param, Tool, type ToolContext } from '@toolwright/core';
import { createApp, tasks, TASKS_EXTENSION_ID } from '@toolwright/server';
import { createFetchHandler, type FetchHandler } from '@toolwright/server/fetch';
import { modernRequest } from './fixtures/modernRequest';

/**
 * Telemetry of task runs: each run of a task (the first, and the one a tasks/update resumes)
 * has a span of its own, `task <tool>`, the root of its trace (the run outlives the request),
 * linked to the `tools/call` span that created the task; the tool's own spans are its children.
 */
const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const CONFIRM = { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } as const;

class Reports {
  @Tool({ description: 'Asks, then crunches.', task: 'required' })
  async report(@Param('name') name: string, @Ctx() ctx: ToolContext) {
    const answer = await ctx.elicit(`Build ${name}?`, CONFIRM as never, { key: 'go' });
    trace.getTracer('report-test').startActiveSpan('crunch', (span: Span) => span.end());
    return `${name}: ${answer.action}`;
  }
}

describe('task run spans', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let handler: FetchHandler;
  const raw = (method: string, params: Record<string, unknown>, meta: Record<string, unknown> = {}) =>
    modernRequest(handler, method, params, { capabilities: { elicitation: {}, extensions: { [TASKS_EXTENSION_ID]: {} } }, meta });
  const until = async (taskId: string, done: (t: Record<string, unknown>) => boolean) => {
    for (let i = 0; i < 500; i++) {
      const task = await raw('tasks/get', { taskId });
      if (done(task)) return task;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error('never');
  };

  beforeAll(async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
    const app = await createApp({ name: 'reports', version: '1', tools: [Reports], extensions: [tasks()], logger: { debug() {}, info() {}, warn() {}, error() {} } });
    handler = createFetchHandler(app, { logError: () => undefined });
  });
  afterAll(async () => {
    await handler.close();
    trace.disable();
    context.disable();
    await provider.shutdown();
  });

  it('gives each run its own root span, linked to the tools/call span that created the task; the tool’s spans are its children', async () => {
    const { taskId } = await raw('tools/call', { name: 'report', arguments: { name: 'q3' } }, { traceparent: `00-${TRACE_ID}-b7ad6b7169203331-01` });
    await until(taskId as string, (t) => t.status === 'input_required');
    await raw('tasks/update', { taskId, inputResponses: { go: { action: 'accept', content: { confirm: true } } } });
    expect(await until(taskId as string, (t) => t.status === 'completed')).toMatchObject({ result: { content: [{ text: 'q3: accept' }] } });
    for (let i = 0; i < 100 && exporter.getFinishedSpans().filter((s) => s.name === 'task report').length < 2; i++) await new Promise((r) => setTimeout(r, 5));

    const spans = exporter.getFinishedSpans();
    const call = spans.find((s) => s.name === 'tools/call report')!;
    expect(call.spanContext().traceId).toBe(TRACE_ID);
    const runs = spans.filter((s) => s.name === 'task report');
    expect(runs).toHaveLength(2);
    for (const run of runs) {
      expect(run.parentSpanContext).toBeUndefined();
      expect(run.spanContext().traceId).not.toBe(TRACE_ID);
      expect(run.links.map((l) => l.context.spanId)).toEqual([call.spanContext().spanId]);
      expect(run.links[0].context.traceId).toBe(TRACE_ID);
      expect(run.attributes).toMatchObject({ 'mcp.task.id': taskId, 'gen_ai.tool.name': 'report', 'mcp.task.attempt': 1 });
    }
    expect(runs.map((r) => r.attributes['mcp.task.status']).sort()).toEqual(['completed', 'input_required']);
    const crunch = spans.find((s) => s.name === 'crunch') as ReadableSpan;
    const second = runs.find((r) => r.attributes['mcp.task.status'] === 'completed')!;
    expect(crunch.parentSpanContext?.spanId).toBe(second.spanContext().spanId);
  });
});
