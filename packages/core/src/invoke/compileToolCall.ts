import type { ContainerLike } from '../container/ContainerLike';
import type { ToolResult } from '../content/ToolResult';
import type { ToolContext, ToolLogger } from '../context/ToolContext';
import type { Class } from '../metadata/Class';
import type { JsonSchema } from '../schema/JsonSchema';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import type { PatternCompiler } from '../validation/PatternCompiler';
import { issueLines, type ValidationIssue } from '../validation/ValidationIssue';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';
import { compileDtoValidator } from '../validation/validateDto';
import { compileInvocation, type Bind, type CallScope, type Invocation } from './compileInvocation';
import { compileParamsBinder, type BoundParam } from './compileParamsBinder';
import { jsonView, jsonViewOf } from './jsonView';
import { checkedResult, isToolResult, normalizeResult } from './normalizeResult';
import { jsonTextOf, sendable } from './sendable';
import { toolErrorResult as errorResult, toolFailure as failure } from './toolFailure';

/** How validated arguments become the method's positional arguments. */
export type ArgumentBinding =
  | {
      readonly kind: 'params';
      readonly params: readonly BoundParam[];
      readonly ctxIndex: number | undefined;
      readonly arity: number;
    }
  | { readonly kind: 'dto'; readonly cls: Class; readonly index: number; readonly ctxIndex: number | undefined; readonly arity: number }
  /** `@Tool({ inputSchema })`: the validated argument object is passed as is. */
  | { readonly kind: 'raw'; readonly index: number; readonly ctxIndex: number | undefined; readonly arity: number };

export interface ToolCallSpec {
  readonly name: string;
  readonly cls: Class;
  readonly methodName: string;
  readonly binding: ArgumentBinding;
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema | undefined;
  readonly container: ContainerLike;
  readonly coerce: boolean;
  readonly logger: ToolLogger;
  /** `@Tool({ compilePattern })`; `RegExp` when absent. */
  readonly compilePattern?: PatternCompiler;
}

/** Calls a tool: never throws; rejects only to pass on a `CallInterrupt`. */
export type ToolCall = (args: unknown, ctx: ToolContext | undefined, scope?: CallScope) => Promise<ToolResult>;

/**
 * The tool's call, compiled on its first use: a start (and a Worker's cold start, which
 * answers one call) compiles only the tools it calls. Everything that can be wrong with a
 * tool was refused when the app was built (`buildTool`), so compiling cannot fail on
 * declared input; should it throw all the same, each call answers with the tool's internal
 * error, as if its method had thrown.
 */
export function compileToolCall(spec: ToolCallSpec): ToolCall {
  let compiled: ToolCall | undefined;
  return (args, ctx, scope) => {
    if (compiled === undefined) {
      try {
        compiled = compileNow(spec);
      } catch (error) {
        return Promise.resolve(failure(spec.name, error, spec.logger));
      }
    }
    return compiled(args, ctx, scope);
  };
}

/**
 * Compiles everything a call needs once: the argument validator and binder, the output
 * validator, and the error policy, around the one compiled invocation all members share.
 * The returned function adds no promise hop of its own when the checks and the method are
 * synchronous.
 */
function compileNow(spec: ToolCallSpec): ToolCall {
  const { name, cls, methodName, container, logger } = spec;
  const shape = spec.outputSchema ? compileOutput(spec.outputSchema, name, logger, spec.compilePattern) : normalizeResult;
  const invoke = compileInvocation({ cls, methodName, container, bind: compileBinder(spec), shape });
  const fail = (error: unknown): ToolResult => failure(name, error, logger);
  const toResult = (outcome: Invocation): ToolResult => {
    if (outcome.kind === 'invalid') return invalidArguments(name, outcome.issues);
    if (outcome.kind === 'threw') return fail(outcome.error);
    return outcome.value as ToolResult;
  };

  return (rawArgs, ctx, scope) => {
    const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
    if (typeof args !== 'object' || Array.isArray(args)) return Promise.resolve(invalidArguments(name, [{ path: '', message: 'must be an object' }]));
    try {
      const outcome = invoke(args as Record<string, unknown>, ctx, scope);
      return outcome instanceof Promise ? outcome.then(toResult) : Promise.resolve(toResult(outcome));
    } catch (error) {
      // A promise whose executor throws rejects: that is how a CallInterrupt gets out.
      return new Promise<ToolResult>((resolve) => resolve(fail(error)));
    }
  };
}

function compileBinder(spec: ToolCallSpec): Bind {
  const { binding, compilePattern } = spec;
  if (binding.kind === 'params')
    return compileParamsBinder({ schema: spec.inputSchema, params: binding.params, ctxIndex: binding.ctxIndex, arity: binding.arity, coerce: spec.coerce, compilePattern });
  // The advertised schema is checked first, for every tool: it is the contract the model
  // sees, and its messages name each field. DTOs then get class-validator's own checks.
  const checkSchema = compileProfileSchema(spec.inputSchema, { coerce: spec.coerce, compilePattern });
  if (binding.kind === 'dto') {
    const build = compileDtoBuilder(binding.cls);
    const validate = build ? undefined : compileDtoValidator(binding.cls, { coerce: spec.coerce });
    return (args, ctx) => {
      const checked = checkSchema(args);
      if (!checked.ok) return checked;
      const valid = checked.value as Record<string, unknown>;
      if (build) return { ok: true, value: inputAndContext(binding, build(valid), ctx), args: valid };
      return validate!(valid).then((outcome) => (outcome.ok ? { ok: true, value: inputAndContext(binding, outcome.value, ctx), args: valid } : outcome));
    };
  }

  return (args, ctx) => {
    const checked = checkSchema(args);
    return checked.ok ? { ok: true, value: inputAndContext(binding, checked.value, ctx), args: checked.value as Record<string, unknown> } : checked;
  };
}

/** The argument list of a method that takes its whole input as one value (and maybe the context). */
function inputAndContext(binding: { arity: number; index: number; ctxIndex: number | undefined }, input: unknown, ctx: ToolContext | undefined): unknown[] {
  const list = new Array<unknown>(binding.arity);
  list[binding.index] = input;
  if (binding.ctxIndex !== undefined) list[binding.ctxIndex] = ctx;
  return list;
}

function compileOutput(schema: JsonSchema, name: string, logger: ToolLogger, compilePattern: PatternCompiler | undefined): (value: unknown) => ToolResult {
  const validate = compileProfileSchema(schema, { compilePattern });
  const mismatch = () => errorResult(`Tool '${name}' failed: its result did not match the declared output schema. The server log has the details.`);
  return (value) => {
    if (isToolResult(value)) {
      // A complete result of a tool with an output schema carries structured content that matches it (the spec's MUST), unless it reports an error.
      const result = checkedResult(sendable(value));
      if (result.isError === true) return result;
      if (result.structuredContent === undefined) {
        logger.error(`tool '${name}' has an output schema, but returned a complete result without structuredContent: return the value itself, or add structuredContent`);
        return mismatch();
      }
      const outcome = validate(jsonViewOf(result.structuredContent));
      if (!outcome.ok) {
        logger.error(`tool '${name}' returned structuredContent that does not match its output schema`, outcome.issues);
        return mismatch();
      }
      return result;
    }
    const text = jsonTextOf(value) ?? 'null';
    const structured = jsonView(value, text);
    const outcome = validate(structured);
    if (!outcome.ok) {
      logger.error(`tool '${name}' returned a value that does not match its output schema`, outcome.issues);
      return mismatch();
    }
    return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
  };
}

/** The `isError` result of a call whose arguments were refused, one line per field (the first `MAX_LISTED_ISSUES`). */
export function invalidArguments(name: string, issues: readonly ValidationIssue[]): ToolResult {
  return errorResult(`Invalid arguments for tool '${name}':\n${issueLines(issues, '(arguments)')}`);
}
