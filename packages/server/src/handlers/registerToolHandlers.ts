import type { AuthInfo, ToolResult } from '@toolwright/core';
import { toolTaskMode, type CompiledTool } from '@toolwright/core/internal';
import type { Server, ServerContext, Tool } from '../sdk/sdk';
import type { Connection, ToolCallParams } from '../pipeline/Connection';
import type { Surface } from '../surface/Surface';
import { ErrorCodes, ProtocolError } from '../sdk/ProtocolError';
import { paramsProblem } from '../rpc/paramsProblem';
import { callerOf, canAccess } from '../auth/canAccess';
import { createListFilter } from '../auth/createListFilter';
import { guardedList } from '../pipeline/guardedList';
import { decideAdmission } from '../pipeline/decideAdmission';
import { serveAdmitted, serveAlone, serveMember, type MemberAnswer, type MemberRequest } from '../pipeline/serveMember';
import type { MemberRef } from '../pipeline/ServedMember';
import { echoedName } from './echoedName';
import { countCall } from '../pipeline/countCall';
import type { InFlight } from '../pipeline/InFlight';
import type { PipelineEnv } from '../pipeline/PipelineEnv';
import type { UnservedNeedsCheck } from './unservedNeedsCheck';

/** Per-app state shared by every connection's `Server`: built once, read per call. */
export interface ToolBinding {
  /** Narrows a `tools/list` page to the tools one caller may use (the page itself when none has rules). */
  readonly listFor: ReturnType<typeof createListFilter<'tools', Tool>>;
  /** What the app serves now (tools can be added, removed, enabled and disabled at runtime) and the call contexts' shared state. */
  readonly surface: Surface;
  /** Whether a 2026-07-28 call of a tool is refused: it needs an extension the app does not serve (see `unservedNeedsCheck`). */
  readonly refusesCall: UnservedNeedsCheck;
}

export function createToolBinding(surface: Surface, refusesCall: UnservedNeedsCheck): ToolBinding {
  return { listFor: createListFilter('tools', (t: Tool) => surface.catalog.tool(t.name)?.access), surface, refusesCall };
}

/** The pipeline's view of a tool. */
export function toolRef(tool: CompiledTool): MemberRef {
  return { kind: 'tool', member: tool, name: tool.name, annotations: tool.descriptor.annotations };
}

/**
 * Serves `tools/list` (the cached result) and `tools/call` on one SDK `Server`.
 *
 * `tools/call` is the hot path, and on a 2025-era connection the SDK's method handler adds
 * nothing to it but cost: it parses the request with zod twice and the result (which core
 * already normalized) once more. There it is served as the server's fallback handler, which
 * the SDK calls as is, after its own era and method checks; the request's params are checked
 * here (name, arguments), the arguments by the tool's own validator. On a 2026-07-28
 * request it is a method handler, inside the SDK's multi round-trip seam (input_required,
 * requestState), where the client round trips of that era are served.
 */
export function registerToolHandlers(server: Server, binding: ToolBinding, connection: Connection): void {
  const { listFor, surface, refusesCall } = binding;
  const { env, catalog } = surface;
  const refOf = (t: Tool) => {
    const tool = catalog.tool(t.name);
    return tool && toolRef(tool);
  };
  // With authorization rules, each caller gets the (cached) view of the tools it may use; guards narrow it further.
  server.setRequestHandler('tools/list', (request, ctx) => guardedList(listFor(catalog.toolsPage(request.params?.cursor), callerOf(ctx)), 'tools', refOf, ctx, connection, env));
  const unknownTool = (name: string) => () => new ProtocolError(ErrorCodes.InvalidParams, `Unknown tool '${echoedName(name)}'. Call tools/list to see the available tools.`);
  // The request of one tool: one literal with every key written out (a spread of toolRef(tool) here
  // made each later key a megamorphic store through the runtime, and serveMember's reads of it megamorphic loads).
  const requestOf = (tool: CompiledTool, params: ToolCallParams, unknown: () => Error): MemberRequest<ToolResult> => ({
    kind: 'tool',
    member: tool,
    name: tool.name,
    annotations: tool.descriptor.annotations,
    unknown,
    method: 'tools/call',
    args: params.arguments,
    run: (toolCtx, scope) => tool.call(params.arguments, toolCtx, scope),
    timedOut: (ms) => ({ content: [{ type: 'text', text: `Tool '${tool.name}' timed out after ${ms} ms.` }], isError: true }),
    failed: () => ({ content: [{ type: 'text', text: `Tool '${tool.name}' failed with an internal error. The server log has the details.` }], isError: true }),
  });
  // `counted`: the env whose inFlight the run counts in (a call an extension serves counts its runs within itself, see countCall).
  const serveTool = (tool: CompiledTool | undefined, params: ToolCallParams, ctx: ServerContext, counted: PipelineEnv = env): Promise<MemberAnswer<ToolResult>> => {
    const unknown = unknownTool(params.name);
    if (!tool) throw unknown();
    return serveMember(requestOf(tool, params, unknown), ctx, connection, counted);
  };
  const call = (params: ToolCallParams, ctx: ServerContext, counted: PipelineEnv = env) => serveTool(catalog.tool(params.name), params, ctx, counted);
  /**
   * A 2026-07-28 call of a tool that cannot run as declared here (`refusesCall`): the tool's
   * generic failure (the log has the reason), or the unknown tool's error for a caller its access
   * rules refuse, as for any call. Nothing runs.
   */
  const refused = async (tool: CompiledTool, params: ToolCallParams, ctx: ServerContext): Promise<MemberAnswer<ToolResult>> => {
    const request = requestOf(tool, params, unknownTool(params.name));
    if (tool.access && !canAccess(tool.access, callerOf(ctx))) throw request.unknown();
    return request.failed();
  };
  const answer = (params: ToolCallParams, ctx: ServerContext, counted?: PipelineEnv) => call(params, ctx, counted) as Promise<Record<string, unknown>>;
  /** Counts in `runs` what the extensions said a run counts until besides its answer (`ToolRunOverride.settled`). */
  const countUntil = (runs: InFlight, settled: readonly (Promise<unknown> | undefined)[]) => {
    for (const until of settled) if (until) void runs.track(until.catch(() => undefined));
  };
  /**
   * A run of the call an extension serves: counted within the call (`runs`), not again in the app's count.
   * It always answers with a promise: a run refused at once (its tool disabled or removed while an
   * extension held the call, a caller its access rules refuse) rejects, so the extension that
   * started it (the tasks extension: the task fails) still settles what it counted it until.
   */
  const runIn = (runs: InFlight) => {
    const counted: PipelineEnv = { ...env, inFlight: runs };
    return (params: ToolCallParams, sdk: ServerContext, settled: readonly (Promise<unknown> | undefined)[]) => {
      countUntil(runs, settled);
      try {
        return answer(params, sdk, counted);
      } catch (error) {
        return Promise.reject(error as Error);
      }
    };
  };
  /**
   * A guarded task tool's call with extensions around it: its access rules and guards decide
   * once, before the extensions see the call (a caller they refuse gets no task, nor a hint that
   * the tool exists: the extensions see no tool, and every run of the call in this request
   * answers as for a tool the app does not serve). The first run of the call while the
   * extensions decide (the task's first run) takes their verdict, within the same time limit;
   * any other run of an admitted caller (a second `next()`, one after the extensions answered,
   * a task resumed by another request or taken from the queue) is served the normal way, and
   * its guards decide again. A guard step that fails for another reason than a refusal is
   * logged, and every run in this request answers the generic internal error. `serveAdmitted`
   * counts the admitted run in `runs`, within the call the handler counts from its start (see `countCall`).
   */
  const aroundGuarded = async (around: NonNullable<Connection['aroundToolCall']>, tool: CompiledTool, params: ToolCallParams, ctx: ServerContext, runs: InFlight) => {
    const request = requestOf(tool, params, unknownTool(params.name));
    const run = runIn(runs);
    const decided = await decideAdmission(request, ctx, connection, env);
    if ('refusal' in decided) return around(params, undefined, ctx, () => Promise.reject(request.unknown()));
    if ('failed' in decided) return around(params, tool, ctx, async () => request.failed() as Record<string, unknown>);
    const { admission } = decided;
    let usable = true;
    try {
      return await around(params, tool, ctx, (sdk, settled) => {
        if (!usable) return run(params, sdk, settled);
        usable = false;
        countUntil(runs, settled);
        return serveAdmitted(request, admission, sdk, connection, { ...env, inFlight: runs }) as Promise<Record<string, unknown>>;
      });
    } finally {
      usable = false;
      admission.releaseUntaken();
    }
  };
  if (connection.era === 'modern') {
    // An extension's own run of a call (a task resumed by tasks/update, restarted by a poll) counts until its outcome is stored too.
    connection.callTool = (params, sdk, settled) => countCall(env.inFlight, (runs) => runIn(runs)(params, sdk, [settled]));
    server.setRequestHandler('tools/call', (request, ctx) => {
      const { params } = request;
      const tool = catalog.tool(params.name);
      if (tool !== undefined && refusesCall(tool)) return refused(tool, params, ctx);
      const around = connection.aroundToolCall;
      if (!around) return serveTool(tool, params, ctx);
      // Counted from here, while the extensions decide, until the call's answer and every run they started for it have settled.
      return countCall(env.inFlight, (runs) => {
        connection.callCounted?.();
        if (!tool?.pipeline?.guards.length || !toolTaskMode(tool.target, tool.methodName)) {
          const run = runIn(runs);
          return around(params, tool, ctx, (sdk, settled) => run(params, sdk, settled));
        }
        return aroundGuarded(around, tool, params, ctx, runs);
      }) as Promise<MemberAnswer<ToolResult>>;
    });
    return;
  }
  server.fallbackRequestHandler = async (request, ctx) => {
    if (request.method !== 'tools/call') throw new ProtocolError(ErrorCodes.MethodNotFound, 'Method not found');
    return call(callParams(request.params), ctx);
  };
}

/** The params of a `tools/call` the SDK did not parse: a string name and, if any, an object of arguments. */
function callParams(params: Record<string, unknown> | undefined): { name: string; arguments?: Record<string, unknown> } {
  const problem = paramsProblem('tools/call', params);
  if (problem) throw new ProtocolError(ErrorCodes.InvalidParams, problem);
  return params as { name: string; arguments?: Record<string, unknown> };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A 2025-era `tools/call` served without the SDK (see `serveDirectCalls`): its result, or
 * undefined when the request needs more than the tool's compiled call (then the SDK serves
 * it, with the same answer). Only for a tool the caller may use and that needs nothing of
 * the pipeline; bad params, unknown tools and refusals all go the SDK's way.
 */
export type DirectToolCall = (params: unknown, caller: AuthInfo | undefined) => Promise<ToolResult> | undefined;

export function directToolCall(binding: ToolBinding): DirectToolCall {
  const { catalog, env } = binding.surface;
  return (params, caller) => {
    if (!isObject(params)) return undefined;
    const { name, arguments: args } = params;
    if (typeof name !== 'string' || (args !== undefined && !isObject(args))) return undefined;
    const tool = catalog.tool(name);
    return tool && serveAlone(toolRef(tool), caller, undefined, env, () => tool.call(args, undefined, undefined));
  };
}
