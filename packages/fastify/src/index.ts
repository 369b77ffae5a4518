/** @toolwright/fastify — serve a Toolwright app's MCP endpoint from a Fastify 5 app. */
export { toolwrightPlugin, createToolwrightPlugin } from './toolwrightPlugin';
export type { ToolwrightFastifyPlugin } from './toolwrightPlugin';
export type { ToolwrightPluginOptions } from './ToolwrightPluginOptions';
