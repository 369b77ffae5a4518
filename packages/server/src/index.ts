/**
 * @toolwright/server — serve a Toolwright app over MCP with the official SDK.
 * The only Toolwright package that imports the MCP SDK (`@modelcontextprotocol/server`), all of it in `src/sdk/`.
 */
// Loaded with this entry, before the app's own modules: the SDK, which every server runs. Its start
// allocates mostly long-lived objects; V8 shrinks its first old-generation limit by the survival
// ratio of each young collection, and with the SDK loaded after the app's modules a stdio start
// schedules a major collection that a hand-written server's start never does (bench/README.md).
import './sdk/sdk';
export { createApp } from './app/createApp';
export type { App, Listener, ListenerRelease, McpServerHandle, ServerFactory, ServerSetup, ServiceOverrides } from './app/App';
export type { ChangeNotifier } from './surface/Connections';
export type { ListControl } from './surface/ListControl';
export type { AppOptions } from './app/AppOptions';
export type { Mount } from './compose/Mount';
export type { RequestStateOptions, UsedStateStore } from './roundtrip/RequestStateCodec';
export type { TelemetryOptions } from './telemetry/TelemetryOptions';
export type { ListenOptions, StdioListenOptions, HttpListenOptions } from './app/ListenOptions';
export { parseListenArgs } from './app/parseListenArgs';
export { ProtocolError, ErrorCodes } from './sdk/ProtocolError';
export { defineExtension } from './extensions/defineExtension';
export { skills, SKILLS_EXTENSION } from './extensions/skills/skills';
export { apps } from './extensions/apps/apps';
export type { SkillsOptions } from './extensions/skills/skills';
export type {
  Extension,
  ExtensionApp,
  ExtensionContext,
  ExtensionListen,
  ExtensionListenContext,
  ExtensionRequest,
  ExtensionNotification,
  ExtensionStop,
  ParamsSchema,
  ToolCallRequest,
  ToolRunOverride,
} from './extensions/Extension';
export { tasks, TASKS_EXTENSION_ID } from './extensions/tasks/tasks';
export type { TasksOptions } from './extensions/tasks/tasks';
export { MemoryTaskStore } from './extensions/tasks/MemoryTaskStore';
export type { TaskStore, StoredTask, TaskStatus, TaskInputRequest, StoredCaller, StoredClient } from './extensions/tasks/TaskStore';
