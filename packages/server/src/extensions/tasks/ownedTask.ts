import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import type { ExtensionContext } from '../Extension';
import { ownerOf } from './ownerOf';
import type { StoredTask, TaskStore } from './TaskStore';

/** JSON-RPC error of a routing header that disagrees with the body (SEP-2243). */
const HEADER_MISMATCH = -32020;

/** The caller's own task `taskId`, after the routing header check; -32602 for any other. */
export async function ownedTask(store: TaskStore, taskId: string, ctx: ExtensionContext): Promise<StoredTask> {
  checkRoutingHeader(ctx, taskId);
  const task = await store.get(taskId);
  if (!task || task.owner !== ownerOf(ctx)) {
    throw new ProtocolError(
      ErrorCodes.InvalidParams,
      `No task '${taskId.slice(0, 64)}' for this caller: it does not exist, it expired, or another caller created it. Use the taskId that tools/call returned.`,
    );
  }
  return task;
}

/** Over HTTP, `tasks/*` carry `Mcp-Name: <taskId>` for routing (SEP-2663); a missing or different one is refused (-32020). */
function checkRoutingHeader(ctx: ExtensionContext, taskId: string): void {
  if (!ctx.headers) return;
  const raw = ctx.headers['mcp-name'];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  if (value === undefined) throw new ProtocolError(HEADER_MISMATCH, `${ctx.method} over HTTP needs the header 'Mcp-Name: <taskId>' (SEP-2663); it is missing.`);
  if (value !== taskId) throw new ProtocolError(HEADER_MISMATCH, `The Mcp-Name header does not match params.taskId of ${ctx.method}: send the same task id in both.`);
}
