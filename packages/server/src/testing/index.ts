/** @toolwright/server/testing — drive your app through a real MCP client in your tests. */
export { createTestClient } from './createTestClient';
export type { TestClientOptions } from './createTestClient';
export { structuredResult, toolError, toolText } from './toolResults';
export type { ToolResultLike } from './toolResults';
export { toolSchema } from './toolSchema';
export type { ToolLister } from './toolSchema';
