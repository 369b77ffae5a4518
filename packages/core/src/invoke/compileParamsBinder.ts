import type { JsonSchema } from '../schema/JsonSchema';
import type { ParamShape } from '../schema/paramSchema';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import type { PatternCompiler } from '../validation/PatternCompiler';
import { compileDtoBuilder } from '../validation/compileDtoBuilder';
import { compileDtoValidator } from '../validation/validateDto';
import type { ValidationIssue } from '../validation/ValidationIssue';
import type { Bind, BindOutcome } from './compileInvocation';

/** One `@Param` of a tool, resource template or prompt, as the build resolved it. */
export interface BoundParam {
  readonly name: string;
  readonly index: number;
  readonly shape: ParamShape;
  /** The `default` option, used when the argument is missing (objects are cloned per call). */
  readonly fallback: unknown;
}

export interface ParamsBinding {
  /** The object schema of all the parameters: checked first, its messages name each field. */
  readonly schema: JsonSchema;
  readonly params: readonly BoundParam[];
  readonly ctxIndex: number | undefined;
  readonly arity: number;
  /** Convert strings to the declared scalar types ("5" -> 5): always for URI variables and prompt arguments. */
  readonly coerce: boolean;
  /** How `pattern`s are compiled (`@Tool({ compilePattern })`); `RegExp` when absent. */
  readonly compilePattern?: PatternCompiler;
}

/**
 * The argument binder of a method that takes one `@Param` per argument, shared by tools,
 * resource templates and prompts: schema check, defaults, conversion to Date and DTO
 * instances, and the context at its position.
 */
export function compileParamsBinder(binding: ParamsBinding): Bind {
  const checkSchema = compileProfileSchema(binding.schema, { coerce: binding.coerce, compilePattern: binding.compilePattern });
  const { params, ctxIndex, arity } = binding;
  const converters = params.map((p) => compileConverter(p.name, p.shape, binding.coerce));
  return (args, ctx) => {
    const outcome = checkSchema(args);
    if (!outcome.ok) return outcome;
    let valid = outcome.value as Record<string, unknown>;
    let filled = false;
    const list = new Array<unknown>(arity);
    const issues: ValidationIssue[] = [];
    let pending = false;
    for (let i = 0; i < params.length; i++) {
      const p = params[i];
      let value = valid[p.name];
      // A fresh copy per call: a method that changes its default must not change the next call's.
      if (value === undefined && p.fallback !== undefined) {
        value = typeof p.fallback === 'object' ? structuredClone(p.fallback) : p.fallback;
        // The validated arguments middleware sees have the defaults too (a copy: the request's own object stays as sent).
        if (!filled) valid = { ...valid };
        filled = true;
        valid[p.name] = typeof p.fallback === 'object' ? structuredClone(p.fallback) : p.fallback;
      }
      // `null` (a `nullable` parameter) arrives as null: it is no date string and no object to build.
      const converted = value === undefined || value === null ? value : converters[i](value, issues);
      if (converted instanceof Promise) pending = true;
      list[p.index] = converted;
    }
    if (ctxIndex !== undefined) list[ctxIndex] = ctx;
    if (!pending) return { ok: true, value: list, args: valid };
    return Promise.all(list).then((settled): BindOutcome => (issues.length > 0 ? { ok: false, issues } : { ok: true, value: settled, args: valid }));
  };
}

/** Converts one validated argument to what the method receives (Date, DTO instances). */
function compileConverter(name: string, shape: ParamShape, coerce: boolean): (value: unknown, issues: ValidationIssue[]) => unknown {
  switch (shape.kind) {
    case 'plain':
      return (value) => value;
    case 'date':
      return (value) => new Date(value as string);
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
        // A key that is no identifier comes bracketed (`["e-mail"]`): no dot before it.
        for (const issue of outcome.issues) issues.push({ path: !issue.path ? path : issue.path.startsWith('[') ? `${path}${issue.path}` : `${path}.${issue.path}`, message: issue.message });
        return undefined;
      };
      return shape.array ? (value, issues) => Promise.all((value as unknown[]).map((v, i) => one(v, `${name}[${i}]`, issues))) : (value, issues) => one(value, name, issues);
    }
  }
}
