import type * as Sdk from '@modelcontextprotocol/server';
import type * as Core from '@toolwright/core';
import type { CompletionResult } from '@toolwright/core/internal';

/**
 * Compile-time proof that core's wire shapes (declared in core, which never imports the SDK)
 * fit the SDK's: tool, prompt and resource results, content, icons, auth info, log levels,
 * sampling, roots and cache hints. A change on either side that breaks this fails the build here.
 */
type Assignable<From, To> = [From] extends [To] ? true : false;
type Expect<T extends true> = T;

export type WireTypeChecks = [
  Expect<Assignable<Core.ToolResult, Sdk.CallToolResult>>,
  Expect<Assignable<Core.ContentBlock, Sdk.ContentBlock>>,
  Expect<Assignable<Core.PromptResult, Sdk.GetPromptResult>>,
  Expect<Assignable<Core.ReadResourceResult, Sdk.ReadResourceResult>>,
  Expect<Assignable<Core.Icon, Sdk.Icon>>,
  Expect<Assignable<Core.AuthInfo, Sdk.AuthInfo>>,
  Expect<Assignable<Sdk.AuthInfo, Core.AuthInfo>>,
  Expect<Assignable<Core.LogLevel, Sdk.LoggingLevel>>,
  Expect<Assignable<Sdk.LoggingLevel, Core.LogLevel>>,
  Expect<Assignable<Core.SamplingMessage, Sdk.SamplingMessage>>,
  Expect<Assignable<Core.Root, Sdk.Root>>,
  Expect<Assignable<Core.ToolAnnotations, Sdk.ToolAnnotations>>,
  Expect<Assignable<Core.CacheHint, Sdk.CacheHint>>,
  Expect<Assignable<Sdk.CreateMessageResult, Core.SamplingResult>>,
  Expect<Assignable<CompletionResult, Sdk.CompleteResult['completion']>>,
];
