import type { ToolDefinition, ToolResult } from '@toolwright/core';
import type { Connection } from './Connection';
import type { InputRequest, ServerContext } from '@modelcontextprotocol/server';
import type { InputRequiredAnswer } from '../roundtrip/runRound';
import { runWithRounds } from './runWithRounds';
import { createToolContext, type ContextEnv } from './createToolContext';

export interface InvokeEnv extends ContextEnv {
  /** The app's default tool timeout in milliseconds; undefined for none. */
  readonly toolTimeoutMs: number | undefined;
}

/**
 * Runs one tool call. The fast path (no `@Ctx()`, no timeout) is the compiled call alone.
 * Otherwise the context is built, closed once the call ends (no progress after the
 * response), and a timeout answers with an `isError` result and aborts `ctx.signal`. A
 * method with a context runs as one round of a 2026-07-28 request when the request is one:
 * the answer may then be `input_required` (see `runWithRounds`).
 */
export function invokeTool(tool: ToolDefinition, args: unknown, sdk: ServerContext, connection: Connection, env: InvokeEnv): Promise<ToolResult | InputRequiredAnswer<InputRequest>> {
  const timeoutMs = tool.timeoutMs ?? env.toolTimeoutMs;
  if (!tool.usesContext) return timeoutMs === undefined ? tool.call(args, undefined) : withTimeout(tool, timeoutMs, sdk.mcpReq.signal, () => tool.call(args, undefined));
  return runWithRounds(connection, sdk, env.requestState, 'tools/call', tool.name, args, (round) => {
    if (timeoutMs === undefined) {
      const open = createToolContext(tool.name, sdk, connection, env, sdk.mcpReq.signal, round);
      return tool.call(args, open.ctx).finally(open.close);
    }
    return withTimeout(tool, timeoutMs, sdk.mcpReq.signal, (signal) => {
      const open = createToolContext(tool.name, sdk, connection, env, signal, round);
      return tool.call(args, open.ctx).finally(open.close);
    });
  });
}

/** Runs `call` with a timer: after `timeoutMs` the answer is an `isError` result and the call's signal is aborted. */
function withTimeout(tool: ToolDefinition, timeoutMs: number, requestSignal: AbortSignal, call: (signal: AbortSignal) => Promise<ToolResult>): Promise<ToolResult> {
  const timer = new AbortController();
  const signal = AbortSignal.any([requestSignal, timer.signal]);
  let handle: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ToolResult>((resolve) => {
    handle = setTimeout(() => {
      timer.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve({ content: [{ type: 'text', text: `Tool '${tool.name}' timed out after ${timeoutMs} ms.` }], isError: true });
    }, timeoutMs);
  });
  return Promise.race([call(signal), timedOut]).finally(() => clearTimeout(handle));
}
