import { Injectable, UseGuards } from '@nestjs/common';
import { Param, Tool, ToolError } from '@toolwright/core';
import { TodosService, type Todo } from './todos.service';
import { WritableGuard } from './writable.guard';

/** MCP tools as a Nest provider: Nest's container builds the class and what it injects. */
@Injectable()
export class TodosTools {
  constructor(private readonly todos: TodosService) {}

  @Tool({ description: 'List the todos, with their ids. Use before adding one, to avoid duplicates.', annotations: { readOnlyHint: true } })
  listTodos(): { todos: readonly Todo[] } {
    return { todos: this.todos.list() };
  }

  @Tool({ description: 'Add a todo to the list. Use when the user asks to remember something to do.' })
  @UseGuards(WritableGuard)
  addTodo(@Param('title', { description: "What to do, e.g. 'Water the plants'", minLength: 1, maxLength: 200 }) title: string): Todo {
    if (title.trim() === '') throw new ToolError('The title is blank: pass what there is to do.');
    return this.todos.add(title.trim());
  }
}
