import type { ExtensionApp, ToolRunOverride } from '../Extension';
import { newTaskId } from './newTaskId';
import { authOf } from './storedCallerOf';
import { clientMeta } from './storedClientOf';
import type { TaskRun } from './TaskRunner';
import type { StoredTask } from './TaskStore';

/** The `_meta` key of a run this extension started outside any request (its value: a one-time id only this process knows). */
const RUN_META = 'dev.toolwright/task-run';

/**
 * The runs of task calls this extension starts outside any request (worker, sweeper), through
 * the started app and as the caller who created each task. What a run changes about its call
 * waits here under a one-time id the call's `_meta` carries, until `aroundToolCall` takes it.
 *
 * A run that asks the client something answers `input_required`, which its task is to show. The
 * SDK server of a run outside a request serves it as a 2025-era request, whose shim would send the
 * questions to a client that is not there and fail the call: so the answer goes to the task here,
 * and the SDK gets an empty result that nobody reads.
 */
export class DetachedRuns {
  /** The app, while started: undefined before `start` and after its stop. */
  app: ExtensionApp | undefined;
  /** What each run started outside a request changes about its call, by the one-time id its `_meta` carries. */
  private readonly overrides = new Map<string, ToolRunOverride>();
  /** The `input_required` answers of those runs, by the same id: the task's, not the SDK's (see above). */
  private readonly questions = new Map<string, Record<string, unknown>>();
  /** The ids of the runs under way: an answer that comes after its run ended (the app stopped) is not kept. */
  private readonly underWay = new Set<string>();

  /** Runs `task`'s call outside any request, as the caller who created it (undefined before the app started). */
  runOf(task: StoredTask): TaskRun | undefined {
    const host = this.app;
    if (!host) return undefined;
    return (override) => {
      const nonce = newTaskId();
      this.overrides.set(nonce, override);
      this.underWay.add(nonce);
      const call = { name: task.tool, ...(task.arguments && { arguments: task.arguments }), _meta: { ...clientMeta(task.client), [RUN_META]: nonce } };
      return host
        .callTool(call, authOf(task.caller))
        .then((answer) => this.questions.get(nonce) ?? answer)
        .finally(() => {
          this.overrides.delete(nonce);
          this.questions.delete(nonce);
          this.underWay.delete(nonce);
        });
    };
  }

  /**
   * Runs, through `next` with its override, the call of a run started here (its `_meta` names one
   * of the ids here: taken, it serves one call); undefined for any other call.
   */
  around(meta: Readonly<Record<string, unknown>> | undefined, next: (override: ToolRunOverride) => Promise<Record<string, unknown>>): Promise<Record<string, unknown>> | undefined {
    const nonce = meta?.[RUN_META];
    const override = typeof nonce === 'string' ? this.overrides.get(nonce) : undefined;
    if (!override) return undefined;
    this.overrides.delete(nonce as string);
    return next(override).then((answer) => {
      if (answer.resultType !== 'input_required') return answer;
      if (this.underWay.has(nonce as string)) this.questions.set(nonce as string, answer);
      return { content: [] };
    });
  }
}
