import type { StoredTask } from './TaskStore';

/** The fields of a task every answer about it carries (SEP-2663 `Task`). */
function base(task: StoredTask): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
}

/**
 * What `tools/call` answers when it made a task: the flat `CreateTaskResult` (SEP-2663), which
 * has no `content`. The handle reaches the wire with `content: []` all the same: the SDK's
 * `Server` gives every contentless `tools/call` result an empty `content` (its only exception is
 * the 2025-11-25 shape, a nested `task` key), then checks the result against `CallToolResult`,
 * which requires one. Leaving `content` out here changes nothing; taking it off the SDK's answer
 * would answer past the SDK. A client reads `resultType` first, and ignores the extra key.
 */
export function createTaskResult(task: StoredTask): Record<string, unknown> {
  return { resultType: 'task', ...base(task) };
}

/** What `tasks/get` answers: the task with what its status carries (input requests, result or error). */
export function detailedTask(task: StoredTask): Record<string, unknown> {
  return {
    resultType: 'complete',
    ...base(task),
    ...(task.status === 'input_required' && { inputRequests: task.inputRequests ?? {} }),
    ...(task.status === 'completed' && { result: task.result ?? { content: [] } }),
    ...(task.status === 'failed' && { error: task.error ?? { code: -32603, message: 'Internal error' } }),
  };
}

/** The answer of `tasks/update` and `tasks/cancel`: an acknowledgement, the task's state is read with `tasks/get`. */
export const ACK: Readonly<Record<string, unknown>> = Object.freeze({ resultType: 'complete' });
