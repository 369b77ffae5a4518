import { Injectable, type CanActivate } from '@nestjs/common';
import { TodosService } from './todos.service';

/**
 * A Nest guard, as on a controller: on a tool method it runs before each call, and a `false`
 * refuses the call with a `Forbidden` tool error the client reads. Nest builds it (it injects the store).
 */
@Injectable()
export class WritableGuard implements CanActivate {
  constructor(private readonly todos: TodosService) {}

  canActivate(): boolean {
    return !this.todos.readOnly;
  }
}
