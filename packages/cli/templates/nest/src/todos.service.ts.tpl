import { Injectable } from '@nestjs/common';

export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly done: boolean;
}

/** The todo store: one Nest singleton, injected into the controller and the MCP tools alike. */
@Injectable()
export class TodosService {
  /** While true, WritableGuard refuses changes (e.g. during a migration). */
  readOnly = false;
  private readonly todos: Todo[] = [{ id: 1, title: 'Read the Toolwright docs', done: false }];

  list(): readonly Todo[] {
    return this.todos;
  }

  add(title: string): Todo {
    const todo: Todo = { id: this.todos.length + 1, title, done: false };
    this.todos.push(todo);
    return todo;
  }
}
