import { MemoryTaskStore, type StoredTask } from '@toolwright/server';
import { ErrorCodes, ProtocolError } from '../src/sdk/ProtocolError';
import { TaskRunner } from '../src/extensions/tasks/TaskRunner';
import { TaskStoreListeners } from '../src/extensions/tasks/TaskStoreListeners';

/**
 * A task run that throws before it answers (a call path that refuses at once instead of
 * rejecting) is a run that failed: `TaskRunner.begin` still hands back its round, the task fails
 * with the run's error, the round's count in flight (`settled`) ends, and the runner lets go of
 * the run and of the store's listeners.
 */
const silent = { debug() {}, info() {}, warn() {}, error() {} };

function taskOf(taskId: string): StoredTask {
  const now = Date.now();
  const stamp = new Date(now).toISOString();
  return { taskId, owner: '', status: 'working', createdAt: stamp, lastUpdatedAt: stamp, ttlMs: 60_000, pollIntervalMs: 100, expiresAt: now + 60_000, heartbeatAt: now, tool: 'report' };
}

it('fails the task of a run that throws at once, and ends its count in flight', async () => {
  const store = new MemoryTaskStore();
  const listeners = new TaskStoreListeners(store, { cancel: () => undefined, change: () => undefined });
  const runner = new TaskRunner(store, silent, 1_000, listeners);
  const task = taskOf('t-throws');
  await store.create(task);
  let settled: Promise<unknown> | undefined;
  const round = runner.begin(task, (override) => {
    settled = override.settled;
    throw new ProtocolError(ErrorCodes.InvalidParams, "Unknown tool 'report'. Call tools/list to see the available tools.");
  });
  await expect(round.answer).rejects.toThrow(/Unknown tool 'report'/);
  await runner.follow(round);
  await expect(settled).resolves.toBeUndefined();
  expect({ active: runner.active, listening: listeners.listening }).toEqual({ active: 0, listening: false });
  expect(await store.get(task.taskId)).toMatchObject({ status: 'failed', error: { code: ErrorCodes.InvalidParams, message: expect.stringContaining("Unknown tool 'report'") } });
});
