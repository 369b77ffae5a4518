import { Module } from '@nestjs/common';
import { ToolwrightModule } from '@toolwright/nestjs';
import { TodosController } from './todos.controller';
import { TodosModule } from './todos.module';
import { TodosTools } from './todos.tools';
import { WritableGuard } from './writable.guard';

/**
 * The app: its controller, and the MCP endpoint (/mcp) on the same port. The endpoint answers
 * loopback Host names only: behind a public name, set `http: { allowedHosts, auth }` in forRoot,
 * see https://github.com/toolwright/toolwright/blob/main/docs/guide/nestjs.md.
 */
@Module({
  imports: [
    TodosModule,
    ToolwrightModule.forRoot({
      name: '{{serverName}}',
      version: '0.1.0',
      title: '{{title}}',
      instructions: 'Keep a todo list: list_todos before adding, so that you do not add a todo twice.',
      tools: [TodosTools],
      imports: [TodosModule],
      providers: [WritableGuard],
      // The endpoint's options; jest sets NODE_ENV=test, which keeps the request log out of the test output.
      http: { requestLogLevel: process.env.NODE_ENV === 'test' ? 'silent' : 'info' },
    }),
  ],
  controllers: [TodosController],
})
export class AppModule {}
