/** @toolwright/server/testing — drive your app through a real MCP client in your tests. */
export { createTestClient } from './createTestClient';
export type {
  AppTestClientOptions,
  Awaitable,
  CommonTestClientOptions,
  ElicitationAnswer,
  HttpTestClientOptions,
  LegacyClient,
  MemoryTestClientOptions,
  ModernClient,
  RootsAnswer,
  SamplingAnswer,
  StdioTestClientOptions,
  TestAuth,
  TestClientFor,
  TestClientOptions,
  TestEra,
  TestProtocol,
} from './createTestClient';
export type { TestClient, TestContent, TestPageParams, TestRecord, TestTool, TestToolResult } from './TestClient';
export { structuredResult, toolError, toolText } from './toolResults';
export type { ToolResultLike } from './toolResults';
export { toolSchema } from './toolSchema';
export { createTaskClient } from './createTaskClient';
export type { PollOptions, RunTaskOptions, TaskCallAnswer, TaskClient, TaskClientOptions, TaskClientTarget, TaskRequestError, TaskState } from './createTaskClient';
export type { ToolLister } from './toolSchema';
