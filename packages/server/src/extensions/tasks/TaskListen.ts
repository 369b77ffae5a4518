import { ErrorCodes, ProtocolError } from '../../sdk/ProtocolError';
import type { ExtensionListen, ExtensionListenContext } from '../Extension';
import { ownerOf } from './ownerOf';
import { TASKS_EXTENSION_ID, tasksNotDeclared } from './TASKS_EXTENSION_ID';
import type { TaskLiveness } from './TaskLiveness';
import type { StoredTask } from './TaskStore';
import type { TasksSettings } from './tasksSettings';
import type { TaskWatchers } from './TaskWatchers';
import { detailedTask } from './taskWire';

/**
 * The tasks extension's part of `subscriptions/listen` (`notifications.taskIds`): each stream gets
 * `notifications/tasks` with the state of the caller's tasks it names, now and at each change.
 */
export class TaskListen {
  constructor(
    private readonly settings: Pick<TasksSettings, 'store' | 'logger' | 'heartbeatTimeoutMs' | 'maxListened'>,
    private readonly watchers: TaskWatchers,
    private readonly liveness: TaskLiveness,
  ) {}

  /** Opens the part of one stream that watches the tasks `filter.taskIds` names. */
  async open(filter: Readonly<Record<string, unknown>>, ctx: ExtensionListenContext): ReturnType<ExtensionListen['open']> {
    const { store, logger, heartbeatTimeoutMs, maxListened } = this.settings;
    const ids = filter.taskIds;
    if (!Array.isArray(ids) || !ids.every((id): id is string => typeof id === 'string')) {
      throw new ProtocolError(ErrorCodes.InvalidParams, 'subscriptions/listen: notifications.taskIds must be an array of task ids (strings) that tools/call returned.');
    }
    if (!ctx.clientExtension()) {
      throw tasksNotDeclared(
        `Task status notifications belong to extension '${TASKS_EXTENSION_ID}', which the listen request did not declare. Declare it in capabilities.extensions to use notifications.taskIds.`,
      );
    }
    const wanted = [...new Set(ids)];
    if (wanted.length > maxListened)
      throw new ProtocolError(ErrorCodes.InvalidParams, `subscriptions/listen names ${wanted.length} task ids; at most ${maxListened} are served per stream. Open several streams.`);
    const owner = ownerOf(ctx);
    const found = await Promise.all(wanted.map((id) => store.get(id)));
    // Tasks that do not exist or belong to another caller are left out of the acknowledgement, as tasks/get refuses them.
    const mine = found.filter((task): task is StoredTask => task !== undefined && task.owner === owner);
    const sent = new Map<string, string>();
    const send = (task: StoredTask) => {
      const version = `${task.status}|${task.lastUpdatedAt}|${task.statusMessage ?? ''}`;
      if (sent.get(task.taskId) === version) return;
      sent.set(task.taskId, version);
      const { resultType: _result, ...detailed } = detailedTask(task);
      ctx.notify('notifications/tasks', detailed);
    };
    const stop = this.watchers.watch(
      mine.map((t) => t.taskId),
      send,
    );
    // The state each task has now, so that a client that listens after its last poll misses nothing.
    for (const task of mine) send(task);
    // A listener does not poll: the tasks whose instance stopped are checked as tasks/get would, every heartbeat timeout.
    const check = setInterval(() => {
      for (const id of sent.keys()) {
        void store
          .get(id)
          .then((task) => task && this.liveness.alive(task))
          .catch((error: unknown) => logger.warn(`task ${id}: its liveness could not be checked`, error));
      }
    }, heartbeatTimeoutMs);
    (check as { unref?: () => void }).unref?.();
    return {
      honored: mine.length > 0 ? { taskIds: mine.map((t) => t.taskId) } : {},
      close: () => {
        clearInterval(check);
        stop();
      },
    };
  }
}
