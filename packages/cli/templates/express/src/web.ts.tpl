import { toolwrightMiddleware, type ToolwrightExpressOptions, type ToolwrightMiddleware } from '@toolwright/express';
import express, { type Express } from 'express';
import { Container } from 'typedi';
import { {{appFactory}} } from './app';
import { TodoService } from './todo.service';

/** The Express app and its MCP middleware (call `mcp.close()` before closing the HTTP server). */
export interface Web {
  readonly web: Express;
  readonly mcp: ToolwrightMiddleware;
}

/**
 * The Express app: your routes, and the MCP endpoint at /mcp beside them, on one port. The
 * endpoint answers loopback Host names only: behind a public name, pass `allowedHosts` (and
 * `auth`) in `options`, see https://github.com/toolwright/toolwright/blob/main/docs/guide/express.md.
 */
export async function createWeb(options: ToolwrightExpressOptions = {}): Promise<Web> {
  const mcp = toolwrightMiddleware(await {{appFactory}}(), options);
  const todos = Container.get(TodoService);
  const web = express();
  web.use(express.json());
  web.get('/api/todos', (_request, response) => {
    response.json(todos.list());
  });
  web.use(mcp);
  return { web, mcp };
}
