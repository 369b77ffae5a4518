import { Controller, Get } from '@nestjs/common';
import { TodosService, type Todo } from './todos.service';

/** The app's own REST route, beside the MCP endpoint on the same port. */
@Controller('todos')
export class TodosController {
  constructor(private readonly todos: TodosService) {}

  @Get()
  list(): readonly Todo[] {
    return this.todos.list();
  }
}
