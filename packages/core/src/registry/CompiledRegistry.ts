import type { PromptResult } from '../content/PromptMessage';
import type { ReadResourceResult } from '../content/ResourceContents';
import type { ToolResult } from '../content/ToolResult';
import type { ToolContext } from '../context/ToolContext';
import type { CallScope } from '../invoke/compileInvocation';
import type { MemberOutcome } from '../invoke/MemberOutcome';
import type { CompletionRequestContext } from '../metadata/Completer';
import type { PatternCompiler } from '../validation/PatternCompiler';
import type { PromptDefinition } from './PromptDefinition';
import type { Registry, ToolDefinition } from './Registry';
import type { ResourceDefinition, ResourceTemplateDefinition } from './ResourceDefinition';
import { ConfigError } from '../errors/ConfigError';

/** The `completion` object of a `completion/complete` result. */
export interface CompletionResult {
  values: string[];
  total?: number;
  hasMore?: boolean;
  [key: string]: unknown;
}

/** A compiled completion provider: at most 100 values, never throws. */
export type CompleteArgument = (value: string, context: CompletionRequestContext) => Promise<MemberOutcome<CompletionResult>>;

/** A tool with its compiled call. */
export interface CompiledTool extends ToolDefinition {
  /**
   * Validates `args`, resolves the class from the container (or the scope's), runs the
   * method (inside the scope's middleware) and normalizes its return value. Never throws:
   * failures are `isError` results.
   */
  call(args: unknown, ctx: ToolContext | undefined, scope?: CallScope): Promise<ToolResult>;
  /**
   * The same call with its messages ('Invalid arguments for tool ...', 'Tool ... failed') naming
   * the tool `name`, as a mount or a transform serves it; absent where the call names no tool.
   */
  readonly callAs?: (name: string) => CompiledTool['call'];
  /** `@Tool({ compilePattern })`: how the tool's schemas run their patterns (a transform's checks too); absent for `RegExp`. */
  readonly compilePattern?: PatternCompiler;
}

/** A static resource with its compiled read. */
export interface CompiledResource extends ResourceDefinition {
  /** Runs the method and normalizes its contents. Never throws. */
  read(ctx: ToolContext | undefined, scope?: CallScope): Promise<MemberOutcome<ReadResourceResult>>;
}

/** A resource template with its compiled read and completers. */
export interface CompiledResourceTemplate extends ResourceTemplateDefinition {
  /** Validates and converts the variables, runs the method, normalizes its contents. Never throws. */
  read(uri: string, variables: Record<string, string | string[]>, ctx: ToolContext | undefined, scope?: CallScope): Promise<MemberOutcome<ReadResourceResult>>;
  /** Completion providers by variable name. */
  readonly completers: Readonly<Record<string, CompleteArgument>>;
}

/** A prompt with its compiled get and completers. */
export interface CompiledPrompt extends PromptDefinition {
  /** Validates and converts the string arguments, runs the method, normalizes its messages. Never throws. */
  get(args: Record<string, string> | undefined, ctx: ToolContext | undefined, scope?: CallScope): Promise<MemberOutcome<PromptResult>>;
  /** Completion providers by argument name. */
  readonly completers: Readonly<Record<string, CompleteArgument>>;
}

/** A registry as the server serves it: every member with what runs it. */
export interface CompiledRegistry extends Registry {
  readonly tools: readonly CompiledTool[];
  tool(name: string): CompiledTool | undefined;
  readonly resources: readonly CompiledResource[];
  readonly resourceTemplates: readonly CompiledResourceTemplate[];
  readonly prompts: readonly CompiledPrompt[];
}

const built = new WeakSet<Registry>();

/** Marks a registry `buildRegistry` made, so `compiledRegistry` can trust it. */
export function markCompiled(registry: CompiledRegistry): CompiledRegistry {
  built.add(registry);
  return registry;
}

/**
 * The compiled view of a registry `buildRegistry` made: what a server needs to run its
 * members. Throws for any other object (a registry written by hand has nothing to run).
 */
export function compiledRegistry(registry: Registry): CompiledRegistry {
  if (!built.has(registry)) throw new ConfigError('Toolwright: this registry was not made by buildRegistry(), so it has nothing to serve. Build it with buildRegistry() or createApp().');
  return registry as CompiledRegistry;
}
