import { Ctx, Param, Tool, ToolError, type ToolContext } from '@toolwright/core';
import { Service } from 'typedi';
import { TasksService, type Task } from './tasks.service';

@Service()
export class TasksTools {
  constructor(private readonly tasks: TasksService) {}

  @Tool({
    description: 'List the tasks on the shared task list. Use before adding a task, to avoid duplicates.',
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  listTasks(@Param('includeDone', { default: false, description: 'Also list completed tasks' }) includeDone: boolean): Task[] {
    return this.tasks.list(includeDone);
  }

  @Tool({
    description: 'Add a task to the shared task list. Returns the new task with its id.',
    annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
  })
  addTask(@Param('title', { description: "What needs doing, e.g. 'Renew the certificate'", minLength: 1, maxLength: 200 }) title: string, @Ctx() ctx: ToolContext): Task {
    // Over HTTP with auth, ctx.authInfo is the verified caller; tools never see the raw request.
    const owner = ctx.authInfo?.clientId ?? 'anonymous';
    ctx.log.info(`task added by ${owner}`);
    return this.tasks.add(title.trim(), owner);
  }

  @Tool({
    description: 'Mark a task as done, by its id (from list_tasks).',
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  })
  completeTask(@Param('id', { integer: true, minimum: 1, description: 'The task id, from list_tasks' }) id: number): Task {
    const task = this.tasks.complete(id);
    if (!task) throw new ToolError(`No task with id ${id}. Call list_tasks to see the ids.`);
    return task;
  }
}
