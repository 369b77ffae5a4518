import type { ToolDefinition, ToolResult } from '@toolwright/core';
import type { Connection } from './Connection';
import type { ServerContext } from '@modelcontextprotocol/server';
import { createToolContext, type ContextEnv } from './createToolContext';

export interface InvokeEnv extends ContextEnv {
  /** The app's default tool timeout in milliseconds; undefined for none. */
  readonly toolTimeoutMs: number | undefined;
}

/**
 * Runs one tool call. The fast path (no `@Ctx()`, no timeout) is the compiled call alone.
 * Otherwise the context is built, closed once the call ends (no progress after the
 * response), and a timeout answers with an `isError` result and aborts `ctx.signal`.
 */
export function invokeTool(tool: ToolDefinition, args: unknown, sdk: ServerContext, connection: Connection, env: InvokeEnv): Promise<ToolResult> {
  const timeoutMs = tool.timeoutMs ?? env.toolTimeoutMs;
  if (!tool.usesContext && timeoutMs === undefined) return tool.call(args, undefined);
  if (timeoutMs === undefined) {
    const open = createToolContext(tool.name, sdk, connection, env);
    return tool.call(args, open.ctx).finally(open.close);
  }

  const timer = new AbortController();
  const signal = AbortSignal.any([sdk.mcpReq.signal, timer.signal]);
  const open = tool.usesContext ? createToolContext(tool.name, sdk, connection, env, signal) : undefined;
  let handle: NodeJS.Timeout | undefined;
  const timedOut = new Promise<ToolResult>((resolve) => {
    handle = setTimeout(() => {
      timer.abort(new Error(`timed out after ${timeoutMs} ms`));
      resolve({ content: [{ type: 'text', text: `Tool '${tool.name}' timed out after ${timeoutMs} ms.` }], isError: true });
    }, timeoutMs);
  });
  return Promise.race([tool.call(args, open?.ctx), timedOut]).finally(() => {
    clearTimeout(handle);
    open?.close();
  });
}
