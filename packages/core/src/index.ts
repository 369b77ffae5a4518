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
export { RequireScopes } from './decorators/RequireScopes';
export { RequireRoles } from './decorators/RequireRoles';
export { Public } from './decorators/Public';

export type { Class, ClassThunk } from './metadata/Class';
export type { ToolOptions, ToolAnnotations, Icon } from './metadata/ToolOptions';
export type { ParamOptions, TypeRef, EnumLike } from './metadata/ParamOptions';

export { buildRegistry } from './build/buildRegistry';
export type { BuildOptions } from './build/BuildOptions';
export type { BuildProblem } from './build/BuildProblem';
export type { Registry, ToolDefinition, ToolDescriptor } from './build/Registry';
export type { AccessRules } from './build/resolveAccess';
export { defaultToolName } from './build/toolName';
export { isToolClass } from './metadata/readMemberMetadata';

export type { ContainerLike } from './container/ContainerLike';
export { createDefaultContainer } from './container/defaultContainer';

export type { ToolContext, ToolLogger, AuthInfo, RoundTripOptions } from './context/ToolContext';
export type { SessionState } from './context/SessionState';
export type { ProtocolEra, RequestEnvelope } from './context/RequestEnvelope';
export { stderrLogger } from './context/stderrLogger';

export { text, image, audio, resourceLink, embeddedResource } from './content/content';
export type { BinaryData } from './content/content';
export type {
  ToolResult,
  ContentBlock,
  ContentAnnotations,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLinkContent,
  EmbeddedResourceContent,
} from './content/ToolResult';

export { ToolwrightError } from './errors/ToolwrightError';
export type { ToolwrightErrorKind } from './errors/ToolwrightError';
export { ConfigError } from './errors/ConfigError';
export { ToolError } from './errors/ToolError';
export { CallInterrupt } from './errors/CallInterrupt';
export { BuildError } from './errors/BuildError';

export type { JsonSchema, JsonSchemaType } from './schema/JsonSchema';
export { compileSchemaValidator } from './validation/compileSchemaValidator';
export type { ValidationIssue, ValidationOutcome } from './validation/ValidationIssue';

export { Resource } from './decorators/Resource';
export { Prompt } from './decorators/Prompt';
export type { ResourceOptions } from './metadata/ResourceOptions';
export type { CacheHint } from './metadata/CacheHint';
export { cacheHintProblem } from './metadata/CacheHint';
export type { PromptOptions } from './metadata/PromptOptions';
export type { Completer, CompletionValues, CompletionRequestContext } from './metadata/Completer';
export type { ResourceDefinition, ResourceTemplateDefinition, ResourceDescriptor, ResourceTemplateDescriptor } from './build/ResourceDefinition';
export type { PromptDefinition, PromptDescriptor, PromptArgumentDescriptor, CompletionResult, CompleteArgument } from './build/PromptDefinition';
export type { MemberOutcome, MemberErrorKind } from './invoke/MemberOutcome';
export { MAX_COMPLETION_VALUES } from './invoke/compileCompleter';
export { compileUriTemplate } from './uri/compileUriTemplate';
export type { UriTemplateMatcher } from './uri/compileUriTemplate';
export { userMessage, assistantMessage } from './content/messages';
export type { PromptMessage, PromptResult } from './content/PromptMessage';
export type { ReadResourceResult, ResourceContents, TextResourceContents, BlobResourceContents } from './content/ResourceContents';
export { ResourceNotFoundError } from './errors/ResourceNotFoundError';
export type { ClientLogger, LogLevel } from './context/ClientLogger';
export { LOG_LEVELS } from './context/ClientLogger';
export type { ElicitOutcome, UrlElicitOutcome, ElicitationSchema, SamplingMessage, SamplingRequest, SamplingResult, Root } from './context/ClientRequests';
export { compileElicitationForm } from './elicit/compileElicitationForm';
export type { ElicitationForm } from './elicit/compileElicitationForm';
