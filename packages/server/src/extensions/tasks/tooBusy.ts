import type { TaskRunner } from './TaskRunner';
import type { TasksSettings } from './tasksSettings';

/** Why a new task of `owner` may not run here now (a bound of `maxRunning` reached), or undefined. */
export function tooBusy(runner: TaskRunner, bounds: Pick<TasksSettings, 'maxPerCaller' | 'maxTotal'>, owner: string, tool: string): string | undefined {
  const mine = runner.activeFor(owner);
  if (mine >= bounds.maxPerCaller)
    return `Tool '${tool}' was not started: this caller has ${tasksOf(mine)} running on this server, the most allowed (the server's tasks({ maxRunning: { perCaller } }) raises it). Wait for one to finish or cancel one (tasks/cancel), then call it again.`;
  if (runner.active >= bounds.maxTotal)
    return `Tool '${tool}' was not started: this server runs ${tasksOf(runner.active)}, the most allowed (the server's tasks({ maxRunning: { total } }) raises it). Call it again later.`;
  return undefined;
}

/** Why a queued task was not made: the bound of `maxRunning` the store found reached. */
export function tooManyQueued({ bound, count }: { readonly bound: 'perCaller' | 'total'; readonly count: number }, tool: string): string {
  return bound === 'perCaller'
    ? `Tool '${tool}' was not started: this caller has ${tasksOf(count, 'unfinished ')} (queued, running or waiting for input), the most allowed (the server's tasks({ maxRunning: { perCaller } }) raises it). Wait for one to finish or cancel one (tasks/cancel), then call it again.`
    : `Tool '${tool}' was not started: the task store holds ${tasksOf(count, 'unfinished ')}, the most allowed (the server's tasks({ maxRunning: { total } }) raises it). Call it again later.`;
}

/** `1 task`, `2 tasks` (`1 unfinished task`, ...). */
function tasksOf(count: number, kind = ''): string {
  return `${count} ${kind}task${count === 1 ? '' : 's'}`;
}
