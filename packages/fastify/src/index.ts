/** @toolwright/fastify — serve a Toolwright app's MCP endpoint from a Fastify 5 app. */
export { toolwrightPlugin } from './toolwrightPlugin';
export type { ToolwrightPluginOptions } from './ToolwrightPluginOptions';
