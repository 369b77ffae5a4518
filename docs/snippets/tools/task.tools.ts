import { Param, Tool } from '@toolwright/core';

// #region params
export enum Priority {
  Low = 'low',
  High = 'high',
}

export class TaskTools {
  @Tool({
    name: 'tasks.add',
    title: 'Add a task',
    description: "Add a task to the user's list. Use when the user asks to remember or schedule something.",
    annotations: { destructiveHint: false, openWorldHint: false },
  })
  addTask(
    @Param('title', { description: 'What to do', minLength: 1, maxLength: 200 }) title: string,
    @Param('priority', { enum: Priority, default: Priority.Low }) priority: Priority,
    @Param('tags', { type: () => [String], optional: true, maxItems: 5 }) tags: string[] | undefined,
    @Param('due', { optional: true, description: 'When it is due (ISO 8601)' }) due?: Date,
  ) {
    return { title, priority, tags: tags ?? [], due: due?.toISOString() ?? null };
  }
}
// #endregion params
