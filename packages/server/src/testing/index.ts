/** @toolwright/server/testing — drive your app through a real MCP client in your tests. */
export { createTestClient } from './createTestClient';
export type { TestClientOptions } from './createTestClient';
