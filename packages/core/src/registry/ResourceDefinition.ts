import type { AccessRules } from './resolveAccess';
import type { ContentAnnotations } from '../content/ToolResult';
import type { Class } from '../metadata/Class';
import type { CacheHint } from '../metadata/CacheHint';
import type { Icon } from '../metadata/ToolOptions';
import type { MemberPipeline } from '../pipeline/PipelineArgs';

/** A static resource as `resources/list` shows it. */
export interface ResourceDescriptor {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ContentAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Record<string, unknown>;
}

/** A resource template as `resources/templates/list` shows it. */
export interface ResourceTemplateDescriptor {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: ContentAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Record<string, unknown>;
}

/** A static resource resolved by the build. */
export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly descriptor: ResourceDescriptor;
  readonly target: Class;
  readonly methodName: string;
  /** Whether the method takes `@Ctx()`; the server builds a context only then. */
  readonly usesContext: boolean;
  /** Who may list and read it (`@RequireScopes`, `@RequireRoles`, `@Public`); absent without rules. */
  readonly access?: AccessRules;
  /** `@Resource({ cache })`: the cache hint of its reads for 2026-07-28 clients. */
  readonly cache?: CacheHint;
  /** `@UseMiddleware` and `@UseGuards` of the class and method; absent without any. */
  readonly pipeline?: MemberPipeline;
}

/** A resource template resolved by the build: its descriptor, variables and URI matcher. */
export interface ResourceTemplateDefinition {
  readonly uriTemplate: string;
  readonly name: string;
  readonly descriptor: ResourceTemplateDescriptor;
  readonly target: Class;
  readonly methodName: string;
  readonly usesContext: boolean;
  readonly access?: AccessRules;
  readonly variables: readonly string[];
  /** `@Resource({ cache })`: the cache hint of its reads for 2026-07-28 clients. */
  readonly cache?: CacheHint;
  /** The template's variables in `uri`, or undefined when the template does not produce it. */
  match(uri: string): Record<string, string | string[]> | undefined;
  readonly pipeline?: MemberPipeline;
}
