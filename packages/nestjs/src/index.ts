/** @toolwright/nestjs — serve Nest providers as MCP tools, on the Nest app's own port. */
export { ToolwrightModule } from './ToolwrightModule';
export { ToolwrightServer, TOOLWRIGHT_OPTIONS } from './ToolwrightServer';
export type { AuthInfoFrom, NestEndpointRequest, ToolwrightModuleOptions } from './ToolwrightModuleOptions';
export type { ToolwrightModuleAsyncOptions, ToolwrightModuleSettings } from './ToolwrightModuleAsyncOptions';
export { nestContainer } from './nestContainer';
export { nestPipeline, TOOLWRIGHT_CONTEXT } from './nestPipeline';
