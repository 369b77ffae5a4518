import type { Class } from '../metadata/Class';
import type { Icon, ToolAnnotations } from '../metadata/ToolOptions';
import type { JsonSchema } from '../schema/JsonSchema';
import type { PromptDefinition } from './PromptDefinition';
import type { ResourceDefinition, ResourceTemplateDefinition } from './ResourceDefinition';
import type { AccessRules } from './resolveAccess';
import type { MemberPipeline } from '../pipeline/PipelineArgs';

/** A tool as `tools/list` shows it. */
export interface ToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly icons?: readonly Icon[];
  readonly inputSchema: JsonSchema & { type: 'object' };
  readonly outputSchema?: JsonSchema & { type: 'object' };
  readonly annotations?: ToolAnnotations;
  /** 2025-11-25 `execution` (`@Tool({ task })`): `{ taskSupport: 'optional' }` for a task tool. */
  readonly execution?: { readonly taskSupport: 'optional' };
  readonly _meta?: Record<string, unknown>;
}

/** A tool resolved by the build, as an app may inspect it: its descriptor, its class and method, and its rules. */
export interface ToolDefinition {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  readonly target: Class;
  readonly methodName: string;
  /** Whether the method takes `@Ctx()`; the server builds a context only then. */
  readonly usesContext: boolean;
  /** Per-tool timeout from `@Tool({ timeoutMs })`; the server enforces it. */
  readonly timeoutMs?: number;
  /** Authorization rules from `@RequireScopes`/`@RequireRoles`/`@Public`; absent when the tool has none. */
  readonly access?: AccessRules;
  /** `@UseMiddleware` and `@UseGuards` of the class and method; absent without any. */
  readonly pipeline?: MemberPipeline;
}

/** Everything an app serves, built once at startup and frozen: what `app.registry` shows of it. Serving it is the server's job. */
export interface Registry {
  readonly tools: readonly ToolDefinition[];
  /** Looks a tool up by the name clients call. */
  tool(name: string): ToolDefinition | undefined;
  /** The `tools/list` result, built once and served as is. */
  readonly toolList: { readonly tools: readonly ToolDescriptor[] };
  /** Static resources (`@Resource` with a plain URI). */
  readonly resources: readonly ResourceDefinition[];
  /** Resource templates (`@Resource` with an RFC 6570 URI template). */
  readonly resourceTemplates: readonly ResourceTemplateDefinition[];
  readonly prompts: readonly PromptDefinition[];
}
