import type { ExtensionContext } from '../Extension';
import { ownedTask } from './ownedTask';
import { touched, type TaskRunner } from './TaskRunner';
import { TERMINAL, type TaskStore } from './TaskStore';
import { ACK } from './taskWire';

/** `tasks/cancel`: marks task `taskId` cancelled (unless it ended), and stops its run here and, through the store, on any other instance. */
export async function cancelTask(store: TaskStore, runner: TaskRunner, taskId: string, ctx: ExtensionContext): Promise<Readonly<Record<string, unknown>>> {
  const task = await ownedTask(store, taskId, ctx);
  if (TERMINAL.has(task.status)) return ACK;
  await store.update(taskId, (t) =>
    TERMINAL.has(t.status) ? undefined : touched(t, { status: 'cancelled', queued: undefined, inputRequests: undefined, inputResponses: undefined, requestState: undefined, answers: undefined }),
  );
  runner.abort(taskId);
  await store.publishCancel?.(taskId);
  return ACK;
}
