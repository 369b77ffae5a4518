import type { SpanContext } from '@opentelemetry/api';
import { loadOpenTelemetry } from '../../telemetry/loadOpenTelemetry';
import type { StoredTask } from './TaskStore';

const SCOPE = '@toolwright/server';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The W3C `traceparent` of the span active now (the `tools/call` request's span), or undefined when nothing traces. */
export function activeTraceparent(): string | undefined {
  const api = loadOpenTelemetry();
  const context = api?.trace.getSpanContext(api.context.active());
  if (!api || !context || !api.isSpanContextValid(context)) return undefined;
  return `00-${context.traceId}-${context.spanId}-${context.traceFlags & 1 ? '01' : '00'}`;
}

/**
 * Runs one run of a task inside a span of its own (`task <tool>`, the root of a trace: the run
 * outlives the request), linked to the `tools/call` span that created the task, on whichever
 * instance runs it. Spans the tool makes are its children. Without OpenTelemetry, just runs.
 */
export function inTaskSpan(task: StoredTask, run: () => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> {
  const api = loadOpenTelemetry();
  if (!api) return run();
  const creator = spanContextOf(task.traceparent);
  const span = api.trace.getTracer(SCOPE).startSpan(
    `task ${task.tool}`,
    {
      kind: api.SpanKind.INTERNAL,
      root: true,
      attributes: { 'mcp.task.id': task.taskId, 'gen_ai.tool.name': task.tool, 'mcp.task.attempt': task.attempt ?? 1 },
      links: creator ? [{ context: creator, attributes: { 'mcp.task.link': 'created_by' } }] : [],
    },
    api.ROOT_CONTEXT,
  );
  let answer: Promise<Record<string, unknown>>;
  try {
    answer = api.context.with(api.trace.setSpan(api.ROOT_CONTEXT, span), run);
  } catch (error) {
    answer = Promise.reject(error);
  }
  answer.then(
    (result) => {
      span.setAttribute('mcp.task.status', result.resultType === 'input_required' ? 'input_required' : 'completed');
      if (result.isError === true) span.setAttribute('error.type', 'tool_error');
      span.end();
    },
    (error: unknown) => {
      const code = (error as { code?: unknown } | undefined)?.code;
      span.setAttribute('mcp.task.status', 'failed');
      span.setAttribute('error.type', String(Number.isSafeInteger(code) ? code : -32603));
      span.setStatus({ code: api.SpanStatusCode.ERROR });
      span.end();
    },
  );
  return answer;
}

function spanContextOf(traceparent: string | undefined): SpanContext | undefined {
  const parsed = traceparent === undefined ? null : TRACEPARENT.exec(traceparent);
  if (!parsed) return undefined;
  return { traceId: parsed[1], spanId: parsed[2], traceFlags: parseInt(parsed[3], 16) & 1, isRemote: true };
}
