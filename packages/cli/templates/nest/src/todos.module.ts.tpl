import { Module } from '@nestjs/common';
import { TodosService } from './todos.service';

/** The todo feature: exports its store to the app's controllers and to the MCP tools. */
@Module({ providers: [TodosService], exports: [TodosService] })
export class TodosModule {}
