import { knownAnswers, type InputRequest } from '../../roundtrip/InputRound';
import { RoundTripError } from '../../roundtrip/RoundTripError';
import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import type { ExtensionContext } from '../Extension';
import { ownedTask } from './ownedTask';
import { requestRun } from './requestRun';
import { touched, type TaskRunner } from './TaskRunner';
import type { StoredTask, TaskInputRequest, TaskStore } from './TaskStore';
import { ACK } from './taskWire';

/**
 * `tasks/update`: the client's answers to the questions task `taskId` waits on. Answers to pending
 * questions are kept; once none is pending, the task's call runs again with them all.
 */
export async function updateTask(store: TaskStore, runner: TaskRunner, taskId: string, ctx: ExtensionContext): Promise<Readonly<Record<string, unknown>>> {
  const current = await ownedTask(store, taskId, ctx);
  // Refused before the store changes: the answers stay pending for a 2026-07-28 request to give again.
  const callTool = ctx.callTool;
  if (!callTool) throw new ProtocolError(ErrorCodes.InvalidRequest, 'tasks/update answers a task only on 2026-07-28 requests; the task still waits for its answers.');
  // The SDK takes `inputResponses` out of the params (ctx.inputResponses) and checks it is an object.
  const inputResponses = ctx.inputResponses ?? {};
  checkAnswers(current, inputResponses, ctx.droppedInputResponseKeys ?? []);
  let resumed: StoredTask | undefined;
  await store.update(taskId, (task) => {
    resumed = undefined;
    const next = answered(task, inputResponses);
    if (next?.status === 'working') resumed = next;
    return next;
  });
  if (resumed) runner.start(resumed, requestRun(callTool, resumed));
  return ACK;
}

/** The task after the client's answers: the ones to pending questions kept, the rest ignored; `working` again once none is pending. Undefined when nothing changes. */
function answered(task: StoredTask, responses: Readonly<Record<string, unknown>>): StoredTask | undefined {
  if (task.status !== 'input_required' || !task.inputRequests) return undefined;
  const pending: Record<string, TaskInputRequest> = own(task.inputRequests);
  const gathered: Record<string, unknown> = own(task.inputResponses ?? {});
  const answers: NonNullable<StoredTask['answers']> = own(task.answers ?? {});
  let changed = false;
  for (const [key, value] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    Object.defineProperty(answers, key, { value: { request: pending[key], response: value }, enumerable: true, writable: true, configurable: true });
    delete pending[key];
    Object.defineProperty(gathered, key, { value, enumerable: true, writable: true, configurable: true });
    changed = true;
  }
  if (!changed) return undefined;
  const done = Object.keys(pending).length === 0;
  return touched(task, { status: done ? 'working' : 'input_required', inputRequests: pending, inputResponses: gathered, answers });
}

/**
 * Each answer to a pending question has the shape its method answers with, or the client hears
 * -32602 and the task waits on. `dropped` are the keys whose answer the SDK left out of the
 * responses (not a bare result object): one that names a pending question is refused too, not
 * acknowledged as if it were taken.
 */
function checkAnswers(task: StoredTask, responses: Readonly<Record<string, unknown>>, dropped: readonly string[]): void {
  const pending = task.status === 'input_required' ? task.inputRequests : undefined;
  if (!pending) return;
  for (const key of dropped) {
    if (!Object.hasOwn(pending, key)) continue;
    const { method } = pending[key] as TaskInputRequest;
    throw new ProtocolError(
      ErrorCodes.InvalidParams,
      `tasks/update: inputResponses['${key}'] is not a valid ${method} result: send the result object itself, not a bare value or a { method, result } wrapper.`,
    );
  }
  for (const [key, response] of Object.entries(responses)) {
    if (!Object.hasOwn(pending, key)) continue;
    try {
      knownAnswers({ [key]: { request: pending[key] as InputRequest, response } });
    } catch (error) {
      if (error instanceof RoundTripError) throw new ProtocolError(ErrorCodes.InvalidParams, `tasks/update: ${error.message}`);
      throw error;
    }
  }
}

/** A copy without a prototype, so no key from the wire reads an inherited member. */
function own<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const copy = Object.create(null) as Record<string, T>;
  for (const [key, value] of Object.entries(record)) Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  return copy;
}
