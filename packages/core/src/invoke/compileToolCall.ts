import type { ContainerLike } from '../container/ContainerLike';
import type { ToolResult } from '../content/ToolResult';
import type { ToolContext, ToolLogger } from '../context/ToolContext';
import { CallInterrupt } from '../errors/CallInterrupt';
import { ToolError } from '../errors/ToolError';
import type { Class } from '../metadata/Class';
import type { JsonSchema } from '../schema/JsonSchema';
import type { ParamShape } from '../schema/paramSchema';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import type { ValidationIssue, ValidationOutcome } from '../validation/ValidationIssue';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';
import { compileDtoValidator } from '../validation/validateDto';
import { jsonView } from './jsonView';
import { isToolResult, normalizeResult } from './normalizeResult';

/** How validated arguments become the method's positional arguments. */
export type ArgumentBinding =
  | {
      readonly kind: 'params';
      readonly params: readonly { name: string; index: number; shape: ParamShape; fallback: unknown }[];
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
}

/** Validated positional arguments, or the issues; a promise only when a DTO needs class-validator. */
type Bound = ValidationOutcome<unknown[]> | Promise<ValidationOutcome<unknown[]>>;
type Bind = (args: Record<string, unknown>, ctx: ToolContext | undefined) => Bound;

/**
 * Compiles everything a call needs once: the argument validator and binder, the output
 * validator, and the error policy. The returned function never throws; it rejects only to
 * pass on a `CallInterrupt`. It adds no promise hop of its own when the checks and the
 * method are synchronous.
 */
export function compileToolCall(spec: ToolCallSpec): (args: unknown, ctx: ToolContext | undefined) => Promise<ToolResult> {
  const { name, cls, methodName, container, logger } = spec;
  const bind = compileBinder(spec);
  const shapeOutput = spec.outputSchema ? compileOutput(spec.outputSchema, name, logger) : normalizeResult;
  const fail = (error: unknown): ToolResult => failure(name, error, logger);
  const shape = (value: unknown): ToolResult => {
    try {
      return shapeOutput(value);
    } catch (error) {
      return fail(error);
    }
  };
  const run = (bound: ValidationOutcome<unknown[]>): ToolResult | Promise<ToolResult> => {
    if (!bound.ok) return invalid(name, bound.issues);
    const instance = container.get(cls) as Record<string, (...a: unknown[]) => unknown>;
    const returned = instance[methodName].apply(instance, bound.value);
    return isThenable(returned) ? Promise.resolve(returned).then(shape, fail) : shapeOutput(returned);
  };

  return (rawArgs, ctx) => {
    const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
    if (typeof args !== 'object' || Array.isArray(args)) return Promise.resolve(invalid(name, [{ path: '', message: 'must be an object' }]));
    try {
      const bound = bind(args as Record<string, unknown>, ctx);
      return bound instanceof Promise ? bound.then(run).catch(fail) : Promise.resolve(run(bound));
    } catch (error) {
      // A promise whose executor throws rejects: that is how a CallInterrupt gets out.
      return new Promise<ToolResult>((resolve) => resolve(fail(error)));
    }
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as PromiseLike<unknown>).then === 'function';
}

function compileBinder(spec: ToolCallSpec): Bind {
  const { binding } = spec;
  // The advertised schema is checked first, for every tool: it is the contract the model
  // sees, and its messages name each field. DTOs then get class-validator's own checks.
  const checkSchema = compileProfileSchema(spec.inputSchema, { coerce: spec.coerce });
  if (binding.kind === 'dto') {
    const build = compileDtoBuilder(binding.cls);
    const validate = build ? undefined : compileDtoValidator(binding.cls, { coerce: spec.coerce });
    return (args, ctx) => {
      const checked = checkSchema(args);
      if (!checked.ok) return checked;
      if (build) return { ok: true, value: inputAndContext(binding, build(checked.value as Record<string, unknown>), ctx) };
      return validate!(checked.value).then((outcome) => (outcome.ok ? { ok: true, value: inputAndContext(binding, outcome.value, ctx) } : outcome));
    };
  }

  if (binding.kind === 'raw') {
    return (args, ctx) => {
      const checked = checkSchema(args);
      return checked.ok ? { ok: true, value: inputAndContext(binding, checked.value, ctx) } : checked;
    };
  }

  const converters = binding.params.map((p) => compileConverter(p.name, p.shape, spec.coerce));
  return (args, ctx) => {
    const outcome = checkSchema(args);
    if (!outcome.ok) return outcome;
    const valid = outcome.value as Record<string, unknown>;
    const list = new Array<unknown>(binding.arity);
    const issues: ValidationIssue[] = [];
    let pending = false;
    for (let i = 0; i < binding.params.length; i++) {
      const p = binding.params[i];
      let value = valid[p.name];
      if (value === undefined && p.fallback !== undefined) value = typeof p.fallback === 'object' ? structuredClone(p.fallback) : p.fallback;
      const converted = value === undefined ? undefined : converters[i](value, issues);
      if (converted instanceof Promise) pending = true;
      list[p.index] = converted;
    }
    if (binding.ctxIndex !== undefined) list[binding.ctxIndex] = ctx;
    if (!pending) return { ok: true, value: list };
    return Promise.all(list).then((settled): ValidationOutcome<unknown[]> => (issues.length > 0 ? { ok: false, issues } : { ok: true, value: settled }));
  };
}

/** The argument list of a method that takes its whole input as one value (and maybe the context). */
function inputAndContext(binding: { arity: number; index: number; ctxIndex: number | undefined }, input: unknown, ctx: ToolContext | undefined): unknown[] {
  const list = new Array<unknown>(binding.arity);
  list[binding.index] = input;
  if (binding.ctxIndex !== undefined) list[binding.ctxIndex] = ctx;
  return list;
}

/** Converts one validated argument to what the method receives (Date, DTO instances). */
function compileConverter(name: string, shape: ParamShape, coerce: boolean): (value: unknown, issues: ValidationIssue[]) => unknown {
  switch (shape.kind) {
    case 'plain': return (value) => value;
    case 'date': return (value) => new Date(value as string);
    case 'dto': {
      const build = compileDtoBuilder(shape.cls);
      if (build) {
        const one = (value: unknown) => build(value as Record<string, unknown>);
        return shape.array ? (value) => (value as unknown[]).map(one) : one;
      }
      const validate = compileDtoValidator(shape.cls, { coerce });
      const one = async (value: unknown, path: string, issues: ValidationIssue[]) => {
        const outcome = await validate(value);
        if (outcome.ok) return outcome.value;
        for (const issue of outcome.issues) issues.push({ path: issue.path ? `${path}.${issue.path}` : path, message: issue.message });
        return undefined;
      };
      return shape.array
        ? (value, issues) => Promise.all((value as unknown[]).map((v, i) => one(v, `${name}[${i}]`, issues)))
        : (value, issues) => one(value, name, issues);
    }
  }
}

function compileOutput(schema: JsonSchema, name: string, logger: ToolLogger): (value: unknown) => ToolResult {
  const validate = compileProfileSchema(schema);
  return (value) => {
    if (isToolResult(value)) return value;
    const text = JSON.stringify(value) ?? 'null';
    const structured = jsonView(value, text);
    const outcome = validate(structured);
    if (!outcome.ok) {
      logger.error(`tool '${name}' returned a value that does not match its output schema`, outcome.issues);
      return errorResult(`Tool '${name}' failed: its result did not match the declared output schema. The server log has the details.`);
    }
    return { content: [{ type: 'text', text }], structuredContent: structured as Record<string, unknown> };
  };
}

function invalid(name: string, issues: readonly ValidationIssue[]): ToolResult {
  const lines = issues.map((i) => `- ${i.path || '(arguments)'}: ${i.message}`);
  return errorResult(`Invalid arguments for tool '${name}':\n${lines.join('\n')}`);
}

function failure(name: string, error: unknown, logger: ToolLogger): ToolResult {
  if (CallInterrupt.is(error)) throw error;
  if (ToolError.is(error)) return errorResult(error.message);
  logger.error(`tool '${name}' threw an unexpected error`, error);
  return errorResult(`Tool '${name}' failed with an internal error. The server log has the details.`);
}

function errorResult(text: string): ToolResult {
  return { content: [{ type: 'text', text }], isError: true };
}
