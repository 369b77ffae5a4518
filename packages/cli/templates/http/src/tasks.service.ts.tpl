import { Service } from 'typedi';

export interface Task {
  id: number;
  title: string;
  done: boolean;
  /** Who added it: the authenticated client, or 'anonymous'. */
  owner: string;
}

/**
 * The task store: in memory here, a database in a real server. A singleton (`global: true`), so
 * every HTTP session sees the same tasks.
 */
@Service({ global: true })
export class TasksService {
  private readonly tasks: Task[] = [];
  private nextId = 1;

  list(includeDone: boolean): Task[] {
    return this.tasks.filter((t) => includeDone || !t.done);
  }

  add(title: string, owner: string): Task {
    const task = { id: this.nextId++, title, done: false, owner };
    this.tasks.push(task);
    return task;
  }

  complete(id: number): Task | undefined {
    const task = this.tasks.find((t) => t.id === id);
    if (task) task.done = true;
    return task;
  }
}
