import type { Attributes, Context, Span } from '@opentelemetry/api';
import type { OpenTelemetryApi } from './loadOpenTelemetry';
import type { TelemetryInstruments } from './Telemetry';
import { cutText, logLineText } from '@toolwright/core/internal';
import { protocolMethods } from '../rpc/protocolMethods';
import { isSecretKey } from './isSecretKey';

/**
 * What a name from the wire is recorded as when the app does not serve it (an unknown method,
 * tool or prompt), as OpenTelemetry's HTTP conventions record an unknown method: each new
 * name would otherwise be a new metric series, and a new span name.
 */
export const OTHER = '_OTHER';
// Bounds of what the request's own text may add to a span.
const MAX_ID = 128;
const MAX_URI = 1_024;
const MAX_MESSAGE = 512;
const MAX_JSON = 4_096;
const PROTOCOL_VERSION = /^\d{4}-\d{2}-\d{2}$/;

/** What tracing needs of one request, read from the SDK's request and context by the server seam. */
export interface TracedRequest {
  readonly method: string;
  readonly id: string | number | null | undefined;
  readonly params: Readonly<Record<string, unknown>> | undefined;
  readonly sessionId: string | undefined;
  readonly protocolVersion: string | undefined;
  /** W3C trace context from `params._meta`. */
  readonly meta: { readonly traceparent?: string; readonly tracestate?: string; readonly baggage?: string };
  /** The HTTP request's headers; undefined over stdio and in memory. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>> | undefined;
  /** Whether the app serves this method (it has a handler for it), tool or prompt: only those names are recorded. */
  readonly serves: (kind: 'method' | 'tool' | 'prompt', name: string) => boolean;
  /** The request's own signal (the SDK's): aborted when the client cancels it or its connection closes, and then nothing answers it. */
  readonly signal?: AbortSignal;
}

/** `error.type` of a request that ended unanswered because the client cancelled it (or its connection closed). */
export const CANCELLED = 'cancelled';

/**
 * Serves one request inside a SERVER span named and attributed after OpenTelemetry's MCP
 * semantic conventions (`{mcp.method.name} {target}`), parented on the trace context of
 * `params._meta`, else the HTTP `traceparent` header; records its duration in
 * `mcp.server.operation.duration`. `error.type` is the JSON-RPC error code of an error
 * answer, `tool_error` for an `isError` tool result, and `cancelled` for a request that
 * ended unanswered because the client cancelled it (`notifications/cancelled`) or its
 * connection closed, however the handler settled: no code went out, and the server did not
 * fail, so the span's status stays unset (as OpenTelemetry's RPC and HTTP conventions leave a
 * server span the client ended or got wrong) and no `rpc.response.status_code` is recorded.
 *
 * Metric attributes hold no text of the request's own: a method, tool or prompt the app does
 * not serve is `_OTHER`, so 10,000 made-up names make one series, not 10,000. Span attributes
 * from the request (its id, the resource URI, an error's message, opted-in arguments and
 * results) are cut to a bounded length; arguments under secret-looking keys are `[REDACTED]`.
 */
export function traceRequest<R>(instruments: TelemetryInstruments, request: TracedRequest, serve: () => Promise<R>): Promise<R> {
  const { api, tracer, operationDuration } = instruments;
  const { params, serves } = request;
  const method = protocolMethods.fromClient.has(request.method) || serves('method', request.method) ? request.method : OTHER;
  const common: Attributes = { 'mcp.method.name': method };
  let target: string | undefined;
  if (method === 'tools/call' && typeof params?.name === 'string') {
    target = serves('tool', params.name) ? params.name : OTHER;
    common['gen_ai.tool.name'] = target;
    common['gen_ai.operation.name'] = 'execute_tool';
  } else if (method === 'prompts/get' && typeof params?.name === 'string') {
    target = serves('prompt', params.name) ? params.name : OTHER;
    common['gen_ai.prompt.name'] = target;
  }
  if (request.protocolVersion !== undefined) common['mcp.protocol.version'] = PROTOCOL_VERSION.test(request.protocolVersion) ? request.protocolVersion : OTHER;
  common['network.transport'] = request.headers ? 'tcp' : 'pipe';
  if (request.headers) common['network.protocol.name'] = 'http';

  const started = performance.now();
  let span: Span | undefined;
  let active: Context | undefined;
  if (tracer) {
    const attributes: Attributes = { ...common };
    if (request.id !== null && request.id !== undefined) attributes['jsonrpc.request.id'] = cutText(String(request.id), MAX_ID);
    if (request.sessionId !== undefined) attributes['mcp.session.id'] = cutText(request.sessionId, MAX_ID);
    if (typeof params?.uri === 'string' && method.startsWith('resources/')) attributes['mcp.resource.uri'] = cutText(params.uri, MAX_URI);
    if (instruments.recordArguments && method === 'tools/call' && params?.arguments !== undefined) attributes['gen_ai.tool.call.arguments'] = boundedJson(params.arguments, true);
    const parent = parentContext(api, request);
    span = tracer.startSpan(target === undefined || target === OTHER ? method : `${method} ${target}`, { kind: api.SpanKind.SERVER, attributes }, parent);
    active = api.trace.setSpan(parent, span);
  }

  const end = (errorType: string | undefined, statusCode: string | undefined, message: string | undefined): void => {
    if (request.signal?.aborted) [errorType, statusCode, message] = [CANCELLED, undefined, undefined];
    const outcome: Attributes = {};
    if (errorType !== undefined) outcome['error.type'] = errorType;
    if (statusCode !== undefined) outcome['rpc.response.status_code'] = statusCode;
    if (span) {
      span.setAttributes(outcome);
      if (errorType !== undefined && errorType !== CANCELLED)
        span.setStatus({ code: api.SpanStatusCode.ERROR, ...(typeof message === 'string' && { message: logLineText(summaryOf(message), MAX_MESSAGE) }) });
      span.end();
    }
    operationDuration?.record((performance.now() - started) / 1000, { ...common, ...outcome });
  };

  let served: Promise<R>;
  try {
    served = active ? api.context.with(active, serve) : serve();
  } catch (error) {
    served = Promise.reject(error);
  }
  return served.then(
    (result) => {
      const isError = method === 'tools/call' && (result as { isError?: unknown } | undefined)?.isError === true;
      if (span && instruments.recordResults && method === 'tools/call' && !isError) span.setAttribute('gen_ai.tool.call.result', boundedJson(resultOf(result), false));
      end(isError ? 'tool_error' : undefined, undefined, isError ? textOf(result) : undefined);
      return result;
    },
    (error: unknown) => {
      // The SDK answers an error without a numeric code as -32603 (internal error).
      const raw = (error as { code?: unknown } | undefined)?.code;
      const code = String(Number.isSafeInteger(raw) ? raw : -32603);
      end(code, code, (error as { message?: unknown } | undefined)?.message as string | undefined);
      throw error;
    },
  );
}

/** The remote parent: `params._meta`'s trace context, else the HTTP `traceparent` header; the root context when neither is there. */
function parentContext(api: OpenTelemetryApi, request: TracedRequest): Context {
  const carrier = request.meta.traceparent !== undefined ? request.meta : headerCarrier(request.headers);
  if (carrier.traceparent === undefined) return api.ROOT_CONTEXT;
  // With a propagator registered (the SDKs register W3C trace context and baggage), it reads the carrier.
  if (api.propagation.fields().length > 0) return api.propagation.extract(api.ROOT_CONTEXT, carrier);
  const parsed = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/.exec(carrier.traceparent.trim());
  if (!parsed) return api.ROOT_CONTEXT;
  const spanContext = {
    traceId: parsed[1],
    spanId: parsed[2],
    traceFlags: parseInt(parsed[3], 16) & 1,
    isRemote: true,
    ...(carrier.tracestate !== undefined && { traceState: api.createTraceState(carrier.tracestate) }),
  };
  return api.isSpanContextValid(spanContext) ? api.trace.setSpanContext(api.ROOT_CONTEXT, spanContext) : api.ROOT_CONTEXT;
}

function headerCarrier(headers: TracedRequest['headers']): { traceparent?: string; tracestate?: string; baggage?: string } {
  if (!headers) return {};
  const one = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v.join(',') : v;
  };
  const carrier: { traceparent?: string; tracestate?: string; baggage?: string } = {};
  const traceparent = one('traceparent');
  if (traceparent === undefined) return carrier;
  carrier.traceparent = traceparent;
  const tracestate = one('tracestate');
  if (tracestate !== undefined) carrier.tracestate = tracestate;
  const baggage = one('baggage');
  if (baggage !== undefined) carrier.baggage = baggage;
  return carrier;
}

function resultOf(result: unknown): unknown {
  const r = result as { structuredContent?: unknown; content?: unknown } | undefined;
  return r?.structuredContent ?? r?.content ?? null;
}

/** `value` as JSON cut to a few KiB; with `redact`, the values of the keys `isSecretKey` picks are left out. */
function boundedJson(value: unknown, redact: boolean): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(value, redact ? (key, v: unknown) => (key !== '' && isSecretKey(key) ? '[REDACTED]' : v) : undefined);
  } catch {
    return '[not JSON]';
  }
  return cutText(json ?? 'null', MAX_JSON);
}

/**
 * The first line of an error's message: what failed. The lines after it list the problems of the
 * request's arguments, each quoting the value it got ("- n: must be a number (got string ...)"),
 * which is the client's data: a span holds argument values only when the app asks
 * (`recordArguments`), and a secret-looking key's value never.
 */
function summaryOf(message: string): string {
  const end = message.search(/[\r\n]/);
  return end === -1 ? message : message.slice(0, end);
}

function textOf(result: unknown): string | undefined {
  const first = (result as { content?: { type?: string; text?: unknown }[] } | undefined)?.content?.[0];
  return first?.type === 'text' && typeof first.text === 'string' ? first.text : undefined;
}
