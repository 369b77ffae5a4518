/** @toolwright/hono — mount a Toolwright app's MCP endpoint in a Hono app, on any runtime Hono runs on. */
export { toolwrightMiddleware } from './toolwrightMiddleware';
export type { ToolwrightHonoMiddleware } from './toolwrightMiddleware';
export type { ToolwrightHonoOptions } from './ToolwrightHonoOptions';
