/**
 * @toolwright/core — describe MCP tools as decorated classes.
 * Decorators record; `buildRegistry` derives schemas and compiles calls once; servers
 * (`@toolwright/server`) serve the registry. This package never imports the MCP SDK.
 */
// Loaded first so that decorator metadata (`design:*`) is recorded for every class that imports us.
import 'reflect-metadata';

export { Tool } from './decorators/Tool';
export { Param } from './decorators/Param';
export { Args } from './decorators/Args';
export { Ctx } from './decorators/Ctx';
export { Property } from './decorators/Property';
export type { PropertyOptions } from './decorators/Property';
export { RequireScopes } from './decorators/RequireScopes';
export { RequireRoles } from './decorators/RequireRoles';
export { Public } from './decorators/Public';
export { UseMiddleware } from './decorators/UseMiddleware';
export { UseGuards } from './decorators/UseGuards';
export { RequireClientExtension } from './decorators/RequireClientExtension';
export { UiResource } from './decorators/UiResource';
export { UI_EXTENSION, MCP_APP_MIME_TYPE } from './apps/McpApps';
export type { UiResourceOptions, UiFileOptions, UiCsp, UiPermissions, UiVisibility, ToolUiOptions } from './apps/McpApps';
export { Scoped } from './decorators/Scoped';
export { FromCall } from './decorators/FromCall';
export { OnStart } from './decorators/OnStart';
export { OnShutdown } from './decorators/OnShutdown';
export { TransformTools } from './decorators/TransformTools';
export type { ToolTransform, ToolTransforms, ArgumentTransform } from './transform/ToolTransform';
export type { ServiceLifetime, CallValue } from './metadata/ServiceLifetime';
export type { SessionInfo } from './container/ServiceScope';

export type { Class, ClassThunk } from './metadata/Class';
export type { ToolOptions, ToolAnnotations, Icon } from './metadata/ToolOptions';
export type { ParamOptions, TypeRef, EnumLike } from './metadata/ParamOptions';
export type { ParamHeader } from './headers/paramHeaders';

export { buildRegistry } from './registry/buildRegistry';
export type { BuildOptions, ReadViewFile } from './registry/BuildOptions';
export type { BuildProblem } from './registry/BuildProblem';
export type { Registry, ToolDefinition, ToolDescriptor } from './registry/Registry';
export type { AccessRules } from './registry/resolveAccess';

export type { ContainerLike } from './container/ContainerLike';

export type { ToolContext, ToolLogger, AuthInfo, RoundTripOptions } from './context/ToolContext';
export type { SessionState } from './context/SessionState';
export type { ProtocolEra, RequestEnvelope } from './context/RequestEnvelope';
export { stderrLogger } from './context/stderrLogger';
export { clientExtension, clientExtensionIds } from './context/clientExtension';

export { text, image, audio, resourceLink, embeddedResource } from './content/content';
export type { BinaryData } from './content/content';
export type { ToolResult, ContentBlock, ContentAnnotations, ContentBlockBase, TextContent, ImageContent, AudioContent, ResourceLinkContent, EmbeddedResourceContent } from './content/ToolResult';

export { ToolwrightError } from './errors/ToolwrightError';
export type { ToolwrightErrorKind } from './errors/ToolwrightError';
export { ConfigError } from './errors/ConfigError';
export { ToolError } from './errors/ToolError';
export { CallInterrupt } from './errors/CallInterrupt';
export { BuildError } from './errors/BuildError';
export { StartupError } from './errors/StartupError';

export type { JsonSchema, JsonSchemaType } from './schema/JsonSchema';
export { compileSchemaValidator } from './validation/compileSchemaValidator';
export type { SchemaValidatorOptions } from './validation/compileSchemaValidator';
export type { PatternCompiler, PatternMatcher } from './validation/PatternCompiler';
export type { ValidationIssue, ValidationOutcome } from './validation/ValidationIssue';

export { Resource } from './decorators/Resource';
export { Prompt } from './decorators/Prompt';
export type { ResourceOptions } from './metadata/ResourceOptions';
export type { CacheHint } from './metadata/CacheHint';
export type { PromptOptions } from './metadata/PromptOptions';
export type { Completer, CompletionValues, CompletionRequestContext } from './metadata/Completer';
export type { ResourceDefinition, ResourceTemplateDefinition, ResourceDescriptor, ResourceTemplateDescriptor } from './registry/ResourceDefinition';
export type { PromptDefinition, PromptDescriptor, PromptArgumentDescriptor } from './registry/PromptDefinition';
export { userMessage, assistantMessage } from './content/messages';
export type { PromptMessage, PromptResult } from './content/PromptMessage';
export type { ReadResourceResult, ResourceContents, TextResourceContents, BlobResourceContents } from './content/ResourceContents';
export { ResourceNotFoundError } from './errors/ResourceNotFoundError';
export type { ClientLogger, LogLevel } from './context/ClientLogger';
export { LOG_LEVELS } from './context/ClientLogger';
export type { ElicitOutcome, UrlElicitOutcome, ElicitationSchema, SamplingMessage, SamplingRequest, SamplingResult, Root } from './context/ClientRequests';
export type { MemberKind, MemberAccess, MemberCall } from './pipeline/MemberCall';
export type { Middleware, MiddlewareFn, MiddlewareClass, Next } from './pipeline/Middleware';
export type { Guard, GuardFn, GuardClass } from './pipeline/Guard';
export type { MemberPipeline } from './pipeline/PipelineArgs';
