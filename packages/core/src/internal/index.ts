/**
 * `@toolwright/core/internal`: the helpers `@toolwright/server`, `@toolwright/cli` and
 * Toolwright's own tests share with core, and that an app has no use for.
 *
 * Not part of the public API: no compatibility promise, no API report, no docs page. Any
 * release may change or remove these. Apps import from `@toolwright/core`; if you need
 * something from here, open an issue that says what for.
 */
export { cacheHintProblem } from '../metadata/CacheHint';
export { compileElicitationForm } from '../elicit/compileElicitationForm';
export type { ElicitationForm } from '../elicit/compileElicitationForm';
export { compileUriTemplate } from '../uri/compileUriTemplate';
export type { UriTemplateMatcher } from '../uri/compileUriTemplate';
export { createDefaultContainer } from '../container/defaultContainer';
export { defaultToolName, TOOL_NAME_PATTERN } from '../registry/toolName';
export { timeoutProblem } from '../registry/timeoutProblem';
export { shapeProblem, SERVER_INFO_SHAPE } from '../registry/descriptorShapes';
export { refuseUnknownOptions } from '../errors/refuseUnknownOptions';
export { isToolClass } from '../metadata/readMemberMetadata';
export { composeMiddleware, isMiddlewareClass } from '../pipeline/composeMiddleware';
export type { MiddlewareChain } from '../pipeline/composeMiddleware';
export { checkGuards, isGuardClass, type GuardWait } from '../pipeline/checkGuards';
export { lifetimeOf } from '../metadata/ServiceLifetime';
export { readHooks } from '../metadata/HookArgs';
export type { HookArgs } from '../metadata/HookArgs';
export { ServiceScope } from '../container/ServiceScope';
export type { ServiceScopeOptions } from '../container/ServiceScope';
export { injectedClasses } from '../container/injectedClasses';
export { toolFailure, toolErrorResult } from '../invoke/toolFailure';
export { jsonProblem } from '../invoke/jsonProblem';
export { argumentDepthIssue, MAX_ARGUMENT_DEPTH } from '../validation/argumentDepth';
export { issueLines } from '../validation/ValidationIssue';
export { compiledRegistry } from '../registry/CompiledRegistry';
export type { CompiledRegistry, CompiledTool, CompiledResource, CompiledResourceTemplate, CompiledPrompt, CompleteArgument, CompletionResult } from '../registry/CompiledRegistry';
export type { MemberOutcome, MemberErrorKind } from '../invoke/MemberOutcome';
export type { CallScope } from '../invoke/compileInvocation';
export { scanParamHeaders, X_MCP_HEADER } from '../headers/paramHeaders';
export type { ParamHeader, ParamHeaderScan } from '../headers/paramHeaders';
export { toolTaskMode } from '../metadata/toolTaskMode';
export type { TaskMode } from '../metadata/toolTaskMode';
export { transformTool } from '../transform/transformTool';
export { invalidArguments } from '../invoke/compileToolCall';
export { readCappedText } from '../http/readCappedText';
export { joinedHeader, joinedLines } from '../http/joinedHeader';
export type { HeaderLines } from '../http/joinedHeader';
export { responseClosed } from '../http/responseClosed';
export type { ClosableResponse } from '../http/responseClosed';
export { cutText, logLineText, jsonLogLine, LogThrottle } from '../context/logText';
export type { LogThrottleOptions } from '../context/logText';
