import type { ToolLogger } from '../context/ToolContext';
import { compileCompleter, valuesCompleter } from '../invoke/compileCompleter';
import type { BoundParam } from '../invoke/compileParamsBinder';
import type { Class } from '../metadata/Class';
import type { ParamArgs } from '../metadata/ParamOptions';
import type { JsonSchema } from '../schema/JsonSchema';
import { paramSchema, type ParamShape } from '../schema/paramSchema';
import { createSchemaContext } from '../schema/SchemaContext';
import { jsonViewOf } from '../invoke/jsonView';
import { defaultRefusal, describeDefault } from '../validation/defaultRefusal';
import type { PatternCompiler } from '../validation/PatternCompiler';
import { checkParamDecorators, missingMetadataProblem } from './checkParamDecorators';
import { checkSchemaProfile } from './checkSchemaProfile';
import type { BuildProblem } from './BuildProblem';
import type { CompleteArgument } from './CompiledRegistry';

/** The resolved parameters of a resource-template or prompt method. */
export interface MemberParams {
  readonly argsSchema: JsonSchema & { type: 'object' };
  readonly bound: readonly BoundParam[];
  readonly ctxIndex: number | undefined;
  readonly arity: number;
  /** The `@Param` records by argument name, with whether each is required. */
  readonly declared: readonly { readonly param: ParamArgs; readonly required: boolean; readonly schema: JsonSchema }[];
  readonly completers: Readonly<Record<string, CompleteArgument>>;
}

export interface MemberParamsEnv {
  readonly problems: BuildProblem[];
  readonly logger: ToolLogger;
  /**
   * How the arguments arrive: as JSON values (tool arguments; strings converted only with
   * `coerce`), or as strings (URI-template variables, prompt arguments), where only scalars,
   * and arrays for exploded template variables, can be expressed.
   */
  readonly arrive: { readonly as: 'json'; readonly coerce: boolean } | { readonly as: 'strings'; readonly allowArrays: boolean };
  /** How the owner of the parameters is named in messages ('tool argument', 'prompt argument', 'template variable'). */
  readonly noun: string;
  /** `@Tool({ compilePattern })`: defaults are checked with the engine the tool's calls use. */
  readonly compilePattern?: PatternCompiler;
}

/**
 * The one parameter builder of tools, resource templates and prompts: each `@Param` gets
 * its schema, required or default, and position. Arguments that arrive as strings (URI-template
 * variables, prompt arguments) are limited to scalar schemas (string, number, integer,
 * boolean, enum, date) validated with string conversion, and get completion providers.
 * Pushes problems; returns undefined when it cannot.
 */
export function buildMemberParams(cls: Class, declaredOn: Class, methodName: string, params: readonly ParamArgs[], env: MemberParamsEnv): MemberParams | undefined {
  const where = `${cls.name}.${methodName}`;
  const before = env.problems.length;
  const problem = (what: string, fix: string, at = where) => env.problems.push({ where: at, what, fix });
  const method = (cls.prototype as Record<string, unknown>)[methodName];
  if (typeof method !== 'function') return void problem('is not a method', 'put the decorator on a method.');
  const designTypes = Reflect.getMetadata('design:paramtypes', declaredOn.prototype, methodName) as unknown[] | undefined;
  const arity = Math.max(designTypes?.length ?? 0, (method as (...a: unknown[]) => unknown).length);

  const strings = env.arrive.as === 'strings' ? env.arrive : undefined;
  // A tool's decorators are checked by buildTool, which also allows @Args() and raw input schemas.
  if (strings) {
    checkParamDecorators(where, params, arity, env.problems, false);
    for (const p of params) {
      if (p.kind === 'args') problem(`uses @Args(), but a ${env.noun} is a single string`, "take each one with @Param('name').", `${where} param #${p.index}`);
    }
  }
  const ctxIndex = params.find((p) => p.kind === 'ctx')?.index;

  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const bound: BoundParam[] = [];
  const declared: { param: ParamArgs; required: boolean; schema: JsonSchema }[] = [];
  const completers: Record<string, CompleteArgument> = {};
  const ctx = createSchemaContext(where, env.problems);
  for (const p of params.filter((x) => x.kind === 'param').sort((a, b) => a.index - b.index)) {
    const at = `${where} param #${p.index} '${p.name}'`;
    if (!p.name || Object.hasOwn(properties, p.name)) continue; // reported by checkParamDecorators
    if (p.name in Object.prototype) {
      problem(
        `its ${env.noun} name '${p.name}' is also a member of every JavaScript object (Object.prototype), so a missing one could not be told from the inherited member`,
        `choose another name, such as '${p.name}_'.`,
        at,
      );
      continue;
    }
    if (!designTypes && !p.options?.type && !p.options?.enum && !p.options?.schema) {
      env.problems.push(missingMetadataProblem(at));
      continue;
    }
    if (strings && !p.options?.type && !p.options?.enum && !p.options?.schema && isDtoClass(designTypes?.[p.index])) {
      problem(`is a ${env.noun}, which arrives as one string, but its type is an object`, 'use a string, number, integer, boolean, enum or Date parameter.', at);
      continue;
    }
    const derived = paramSchema(p, designTypes?.[p.index], ctx, at, strings ? true : env.arrive.as === 'json' && env.arrive.coerce);
    if (!derived || (p.options?.schema && !checkSchemaProfile(derived.schema, at, env.problems))) continue;
    const isArray = derived.schema.type === 'array' || (Array.isArray(derived.schema.type) && derived.schema.type.includes('array'));
    if (strings && (derived.shape.kind === 'dto' || (isArray && !strings.allowArrays) || derived.schema.type === 'object')) {
      problem(
        `is a ${env.noun}, which arrives as one string, but its type is ${isArray ? 'an array' : 'an object'}`,
        `use a string, number, integer, boolean, enum or Date parameter${strings.allowArrays ? ' (or a string array for an exploded {var*})' : ''}.`,
        at,
      );
      continue;
    }
    properties[p.name] = derived.schema;
    const isRequired = p.options?.optional !== true && p.options?.default === undefined;
    if (isRequired) required.push(p.name);
    bound.push({ name: p.name, index: p.index, shape: derived.shape, fallback: p.options?.default });
    declared.push({ param: p, required: isRequired, schema: derived.schema });
    const complete = strings ? (p.options?.complete ?? fixedValues(derived.schema)) : undefined;
    if (complete) completers[p.name] = compileCompleter(complete, `${where} '${p.name}'`, env.logger);
  }
  // After the loop: a DTO parameter's `$defs` are complete only now.
  for (let i = 0; i < declared.length; i++) {
    const { param, schema } = declared[i];
    if (schema.default !== undefined) checkDefault(param, schema, bound[i].shape, ctx.defs, where, env);
  }
  if (env.problems.length > before) return undefined;

  let argsSchema: JsonSchema & { type: 'object' } = { type: 'object' };
  if (bound.length > 0) argsSchema.properties = properties;
  if (required.length > 0) argsSchema.required = required;
  argsSchema.additionalProperties = false;
  if (Object.keys(ctx.defs).length > 0) argsSchema = { ...argsSchema, $defs: ctx.defs };
  return {
    argsSchema,
    bound,
    ctxIndex,
    arity,
    declared,
    completers: Object.freeze(completers),
  };
}

/**
 * A default must pass the parameter's own schema: it reaches the method when the argument is
 * missing, so it is held to the rules an argument is. A Date or DTO parameter's default is
 * converted like an argument, so it is checked as JSON carries it (a `Date` as its ISO string).
 */
function checkDefault(param: ParamArgs, schema: JsonSchema, shape: ParamShape, defs: Record<string, JsonSchema>, where: string, env: MemberParamsEnv): void {
  const value = schema.default;
  const refusal = defaultRefusal(schema, shape.kind === 'plain' ? value : jsonViewOf(value), param.name!, defs, env.compilePattern);
  if (refusal === undefined) return;
  env.problems.push({
    where,
    what: `@Param('${param.name}') has the default ${describeDefault(value)}, which its own schema refuses: ${refusal}`,
    fix: "give a default of the parameter's type that passes its rules (or leave the default out).",
  });
}

/** Enum and boolean parameters complete from their values without a provider. */
function fixedValues(schema: JsonSchema) {
  const items = schema.type === 'array' && schema.items ? schema.items : schema;
  if (items.enum) return valuesCompleter(items.enum.filter((v) => v !== null).map(String));
  if (items.type === 'boolean') return valuesCompleter(['true', 'false']);
  return undefined;
}

const SCALARS = new Set<unknown>([String, Number, Boolean, Date, Array, Object]);

/** A class other than the scalar wrappers: it would be derived as a DTO, which cannot come in one string. */
function isDtoClass(type: unknown): boolean {
  return typeof type === 'function' && !SCALARS.has(type);
}
