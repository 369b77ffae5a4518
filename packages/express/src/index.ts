/** @toolwright/express — mount a Toolwright app's MCP endpoint in an Express 5 app. */
export { toolwrightMiddleware } from './toolwrightMiddleware';
export type { ToolwrightMiddleware } from './toolwrightMiddleware';
export type { ToolwrightExpressOptions } from './ToolwrightExpressOptions';
