import type { AccessRules } from './resolveAccess';
import type { Class } from '../metadata/Class';
import type { Icon } from '../metadata/ToolOptions';
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
}
