import { Param, Tool, ToolError } from '@toolwright/core';
import { Service } from 'typedi';
import { TodoService, type Todo } from './todo.service';

@Service()
export class TodosTools {
  // The same TodoService the Express route reads: what a tool adds, GET /api/todos shows.
  constructor(private readonly todos: TodoService) {}

  @Tool({ description: 'List the todos, with their ids. Use before adding one, to avoid duplicates.', annotations: { readOnlyHint: true } })
  listTodos(): { todos: readonly Todo[] } {
    return { todos: this.todos.list() };
  }

  @Tool({ description: 'Add a todo to the list. Use when the user asks to remember something to do.' })
  addTodo(@Param('title', { description: "What to do, e.g. 'Water the plants'", minLength: 1, maxLength: 200 }) title: string): Todo {
    if (title.trim() === '') throw new ToolError('The title is blank: pass what there is to do.');
    return this.todos.add(title.trim());
  }
}
