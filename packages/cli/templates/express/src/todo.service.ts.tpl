import { Service } from 'typedi';

export interface Todo {
  readonly id: number;
  readonly title: string;
  readonly done: boolean;
}

/** The todo store: one instance (typedi's singleton), read by the REST route and the MCP tools alike. */
@Service()
export class TodoService {
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
