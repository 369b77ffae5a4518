import type { Class, PromptResult, ReadResourceResult, ToolContext, ToolLogger, ToolResult } from '@toolwright/core';
import {
  compileUriTemplate,
  toolErrorResult,
  TOOL_NAME_PATTERN,
  type CallScope,
  type CompiledPrompt,
  type CompiledResource,
  type CompiledResourceTemplate,
  type CompiledTool,
  type CompleteArgument,
  type MemberOutcome,
  type UriTemplateMatcher,
} from '@toolwright/core/internal';
import { LOG_LEVEL_META_KEY, type Client, type Prompt, type Resource, type ResourceTemplateType, type UpstreamTool } from '../../sdk/proxyClient';
import { connectionOfContext } from '../../pipeline/contextConnection';
import { isModern } from './UpstreamSession';
import type { CatalogParts } from '../../surface/Catalog';
import { upstreamFailure } from './upstreamFailure';
import { firstOfEach, quoted } from './firstOfEach';
import { canonicalJson } from '../../roundtrip/InputRound';
import { withoutPatterns } from './withoutPatterns';
import { withoutUpstreamIdentity } from './withoutUpstreamIdentity';

/** What the definitions of a proxy need of it. */
export interface ProxyRuntime {
  /** "upstream 'name'", for messages. */
  label(): string;
  readonly logger: ToolLogger;
  readonly requestTimeoutMs: number;
  /** The bound of the requests the proxy sends on its own session (listings, completions, subscriptions). */
  readonly listTimeoutMs: number;
  /** Sends a request on the upstream session of `ctx`'s downstream session or caller; `request` names it (method, target, arguments) for a 2026-07-28 client's retry. */
  run<R>(ctx: ToolContext, request: string, send: (client: Client, signal: AbortSignal, progressToken: string) => Promise<R>): Promise<R>;
  /** The proxy's own session (completions go there), or undefined while it reconnects. */
  control(): Client | undefined;
  /** A client read or subscribed to `uri` of a template: the proxy's own session follows its updates. */
  wanted(uri: string): void;
}

/** The upstream's lists, as last fetched. */
export interface UpstreamLists {
  readonly tools: readonly UpstreamTool[];
  readonly resources: readonly Resource[];
  readonly resourceTemplates: readonly ResourceTemplateType[];
  readonly prompts: readonly Prompt[];
}

const TRACE_KEYS = ['traceparent', 'tracestate', 'baggage'] as const;

/**
 * The upstream's members as definitions of the shape an app's catalog holds (the compose
 * contract): each descriptor as the upstream sent it, each member forwarding to the upstream
 * under the name or URI the upstream gave it (kept here, so a renamed definition still reaches
 * it). Arguments are passed on as given: the upstream validates them.
 */
export function proxyDefinitions(lists: UpstreamLists, target: Class, runtime: ProxyRuntime): CatalogParts {
  const completions = (ref: Record<string, unknown>, names: readonly string[]): Record<string, CompleteArgument> => Object.fromEntries(names.map((name) => [name, completer(runtime, ref, name)]));
  const { logger } = runtime;
  const templates: CompiledResourceTemplate[] = [];
  for (const t of firstOfEach(lists.resourceTemplates, (x) => x.uriTemplate, 'resource template', logger, runtime.label())) {
    let matcher: UriTemplateMatcher;
    try {
      matcher = compileUriTemplate(t.uriTemplate);
    } catch (error) {
      runtime.logger.warn(`${runtime.label()}: resource template '${t.uriTemplate}' is not served: ${(error as Error).message}`);
      continue;
    }
    templates.push({
      uriTemplate: t.uriTemplate,
      name: t.name,
      descriptor: t as CompiledResourceTemplate['descriptor'],
      target,
      methodName: t.name,
      usesContext: true,
      variables: matcher.variables,
      match: (uri) => {
        const variables = matcher.match(uri);
        // Reads and subscriptions (both eras) find their member by matching: follow what clients want.
        if (variables) runtime.wanted(uri);
        return variables;
      },
      completers: completions({ type: 'ref/resource', uri: t.uriTemplate }, matcher.variables),
      read: (uri, _variables, ctx, scope) => read(runtime, uri, ctx, scope),
    });
  }
  return {
    tools: servedTools(lists.tools, runtime).map((t): CompiledTool => {
      // Results are checked against the outputSchema without its patterns (see withoutPatterns), made once per listing.
      const checked = t.outputSchema ? { ...t, outputSchema: withoutPatterns(t.outputSchema) as UpstreamTool['outputSchema'] } : t;
      return {
        name: t.name,
        descriptor: t as CompiledTool['descriptor'],
        target,
        methodName: t.name,
        usesContext: true,
        call: (args, ctx, scope) => callTool(runtime, checked, args, ctx, scope),
      };
    }),
    resources: firstOfEach(lists.resources, (r) => r.uri, 'resource', logger, runtime.label()).map((r): CompiledResource => ({
      uri: r.uri,
      name: r.name,
      descriptor: r as CompiledResource['descriptor'],
      target,
      methodName: r.name,
      usesContext: true,
      read: (ctx, scope) => read(runtime, r.uri, ctx, scope),
    })),
    resourceTemplates: templates,
    prompts: firstOfEach(lists.prompts, (p) => p.name, 'prompt', logger, runtime.label()).map((p): CompiledPrompt => ({
      name: p.name,
      descriptor: p as CompiledPrompt['descriptor'],
      target,
      methodName: p.name,
      usesContext: true,
      completers: completions(
        { type: 'ref/prompt', name: p.name },
        (p.arguments ?? []).map((a) => a.name),
      ),
      get: (args, ctx, scope) => getPrompt(runtime, p.name, args, ctx, scope),
    })),
  };
}

/**
 * The upstream tools the proxy can serve, as plain calls: the proxy relays no tasks (it asks the
 * upstream for none), so a 2025-era `execution.taskSupport` is dropped from the descriptor, and a
 * tool the upstream runs only as a task (`'required'`, which every plain call of it would be
 * refused) is not served, with a warning naming it. So is a tool whose name is not a valid MCP
 * tool name (clients refuse a list that has one), and a name listed twice is served once.
 */
function servedTools(tools: readonly UpstreamTool[], runtime: ProxyRuntime): UpstreamTool[] {
  const served: UpstreamTool[] = [];
  for (const tool of firstOfEach(tools, (t) => t.name, 'tool', runtime.logger, runtime.label())) {
    if (!TOOL_NAME_PATTERN.test(tool.name)) {
      runtime.logger.warn(
        `${runtime.label()}: tool ${quoted(tool.name)} is not served: a tool name is 1-128 characters of A-Z, a-z, 0-9, '_', '.' and '-'. Ask the upstream's maintainers to rename it.`,
      );
      continue;
    }
    const support = (tool as { execution?: { taskSupport?: unknown } }).execution?.taskSupport;
    if (support === 'required') {
      runtime.logger.warn(`${runtime.label()}: tool '${tool.name}' is not served: it runs only as a task, and the proxy relays no tasks.`);
      continue;
    }
    if (support === undefined) served.push(tool);
    else {
      const { execution: _execution, ...plain } = tool as UpstreamTool & { execution?: unknown };
      served.push(plain as UpstreamTool);
    }
  }
  return served;
}

async function callTool(runtime: ProxyRuntime, tool: UpstreamTool, args: unknown, ctx: ToolContext | undefined, scope: CallScope | undefined): Promise<ToolResult> {
  const { name } = tool;
  const what = `tools/call '${name}'`;
  if (!ctx) return toolErrorResult(`${what} needs a call context; the proxy serves calls through Toolwright's pipeline only.`);
  const input = (typeof args === 'object' && args !== null && !Array.isArray(args) ? args : {}) as Record<string, unknown>;
  // Progress goes by the proxy's own token (see UpstreamSession), so none is lost to the client's ordering.
  const forward = (): Promise<ToolResult> =>
    runtime.run(ctx, requestName('tools/call', name, input), async (client, signal, progressToken) => {
      const meta = metaFor(ctx, client);
      const params = { name, arguments: input, _meta: { ...meta._meta, ...(ctx.meta?.progressToken !== undefined && { progressToken }) } };
      // The tool as listed, less its outputSchema's patterns: the client checks the result's structured content against it (the proxy's clients are promised it).
      return withoutUpstreamIdentity((await client.callTool(params, { signal, timeout: runtime.requestTimeoutMs, toolDefinition: tool })) as ToolResult);
    });
  try {
    return scope?.around ? ((await scope.around(input, forward, shapeResult)) as ToolResult) : await forward();
  } catch (error) {
    return toolErrorResult(upstreamFailure(runtime.label(), what, error, ctx.signal, runtime.logger).message);
  }
}

async function read(runtime: ProxyRuntime, uri: string, ctx: ToolContext | undefined, scope: CallScope | undefined): Promise<MemberOutcome<ReadResourceResult>> {
  return outcome(runtime, `resources/read '${uri}'`, requestName('resources/read', uri, {}), ctx, scope, {}, (client, signal) =>
    client.readResource({ uri, ...metaFor(ctx, client) }, { signal, timeout: runtime.requestTimeoutMs }).then((r) => withoutUpstreamIdentity(r as ReadResourceResult)),
  );
}

async function getPrompt(
  runtime: ProxyRuntime,
  name: string,
  args: Record<string, string> | undefined,
  ctx: ToolContext | undefined,
  scope: CallScope | undefined,
): Promise<MemberOutcome<PromptResult>> {
  return outcome(runtime, `prompts/get '${name}'`, requestName('prompts/get', name, args ?? {}), ctx, scope, args ?? {}, (client, signal) =>
    client.getPrompt({ name, ...(args && { arguments: args }), ...metaFor(ctx, client) }, { signal, timeout: runtime.requestTimeoutMs }).then((r) => withoutUpstreamIdentity(r as PromptResult)),
  );
}

/** A read or get forwarded (inside the middleware, when there is any), as the protocol outcome the server answers with. */
async function outcome<T>(
  runtime: ProxyRuntime,
  what: string,
  request: string,
  ctx: ToolContext | undefined,
  scope: CallScope | undefined,
  args: Record<string, unknown>,
  send: (client: Client, signal: AbortSignal) => Promise<T>,
): Promise<MemberOutcome<T>> {
  if (!ctx) return { ok: false, error: 'internal', message: `${what} needs a call context.` };
  const forward = () => runtime.run(ctx, request, send);
  try {
    const value = scope?.around ? ((await scope.around(args, forward, (v) => v)) as T) : await forward();
    return { ok: true, value };
  } catch (error) {
    const failure = upstreamFailure(runtime.label(), what, error, ctx.signal, runtime.logger);
    return { ok: false, error: failure.kind, message: failure.message };
  }
}

/** `completion/complete` for one argument, asked of the upstream on the proxy's own session. */
function completer(runtime: ProxyRuntime, ref: Record<string, unknown>, argument: string): CompleteArgument {
  return async (value, context) => {
    const client = runtime.control();
    if (!client) return { ok: true, value: { values: [] } };
    if (!client.getServerCapabilities()?.completions) return { ok: true, value: { values: [] } };
    try {
      const result = await client.complete(
        { ref: ref as never, argument: { name: argument, value }, context: { arguments: { ...context.arguments } } },
        {
          timeout: runtime.listTimeoutMs,
          // A downstream cancel or timeout ends the upstream lookup too.
          signal: context.signal,
        },
      );
      return { ok: true, value: result.completion };
    } catch (error) {
      const failure = upstreamFailure(runtime.label(), `completion/complete '${argument}'`, error, context.signal, runtime.logger, 'listTimeoutMs');
      return { ok: false, error: failure.kind, message: failure.message };
    }
  };
}

/**
 * The `_meta` of an upstream request: the downstream request's trace context (so the
 * upstream's spans join the same trace) and, to a 2026-07-28 upstream, the downstream
 * client's log level (that era asks for log lines per request).
 */
function metaFor(ctx: ToolContext | undefined, client: Client): { _meta?: Record<string, unknown> } {
  const picked: Record<string, unknown> = {};
  const meta = ctx?.meta;
  if (meta) for (const key of TRACE_KEYS) if (Object.hasOwn(meta, key)) picked[key] = meta[key];
  if (ctx && isModern(client)) {
    const connection = connectionOfContext(ctx);
    const level = ctx.era === 'modern' ? ctx.envelope.logLevel : connection?.logLevel;
    if (level !== undefined) picked[LOG_LEVEL_META_KEY] = level;
  }
  return Object.keys(picked).length > 0 ? { _meta: picked } : {};
}

/** A request as a 2026-07-28 client's retry repeats it: method, target and arguments. */
function requestName(method: string, target: string, args: unknown): string {
  return `${method}\n${target}\n${canonicalJson(args)}`;
}

/** What a middleware returns of its own, as a tool result: a result as is, a string as text, anything else as JSON text. */
function shapeResult(value: unknown): unknown {
  if (typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content)) return value;
  return { content: [{ type: 'text', text: typeof value === 'string' ? value : JSON.stringify(value) }] };
}
