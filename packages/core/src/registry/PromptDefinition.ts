import type { AccessRules } from './resolveAccess';
import type { PromptResult } from '../content/PromptMessage';
import type { ToolContext } from '../context/ToolContext';
import type { MemberOutcome } from '../invoke/MemberOutcome';
import type { Class } from '../metadata/Class';
import type { CompletionRequestContext } from '../metadata/Completer';
import type { Icon } from '../metadata/ToolOptions';
import type { CallScope } from '../invoke/compileInvocation';
import type { MemberPipeline } from '../pipeline/PipelineArgs';

/** One declared argument of a prompt. */
export interface PromptArgumentDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required: boolean;
}

/** A prompt as `prompts/list` shows it. */
export interface PromptDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgumentDescriptor[];
  readonly icons?: readonly Icon[];
  readonly _meta?: Record<string, unknown>;
}

/** The `completion` object of a `completion/complete` result. */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
  [key: string]: unknown;
}

/** A compiled completion provider: at most 100 values, never throws. */
export type CompleteArgument = (value: string, context: CompletionRequestContext) => Promise<MemberOutcome<CompletionResult>>;

/** A prompt resolved by the build. */
export interface PromptDefinition {
  readonly name: string;
  readonly descriptor: PromptDescriptor;
  readonly target: Class;
  readonly methodName: string;
  readonly usesContext: boolean;
  /** Who may list and get it (`@RequireScopes`, `@RequireRoles`, `@Public`); absent without rules. */
  readonly access?: AccessRules;
  /** `@UseMiddleware` and `@UseGuards` of the class and method; absent without any. */
  readonly pipeline?: MemberPipeline;
  /** Validates and converts the string arguments, runs the method, normalizes its messages. Never throws. */
  get(args: Record<string, string> | undefined, ctx: ToolContext | undefined, scope?: CallScope): Promise<MemberOutcome<PromptResult>>;
  /** Completion providers by argument name. */
  readonly completers: Readonly<Record<string, CompleteArgument>>;
}
