import type { ContainerLike } from '../container/ContainerLike';
import type { ToolLogger } from '../context/ToolContext';
import { compileToolCall, type ArgumentBinding } from '../invoke/compileToolCall';
import type { Class, ClassThunk } from '../metadata/Class';
import type { ParamArgs } from '../metadata/ParamOptions';
import type { FoundMember } from '../metadata/readMemberMetadata';
import type { ToolArgs } from '../metadata/ToolOptions';
import { hasClassValidatorMetadata } from '../schema/class-validator';
import { dtoSchema } from '../schema/dtoSchema';
import type { JsonSchema } from '../schema/JsonSchema';
import { createSchemaContext, type SchemaContext } from '../schema/SchemaContext';
import { buildMemberParams } from './buildMemberParams';
import { checkParamDecorators } from './checkParamDecorators';
import { optionsObjectProblem } from './optionsObjectProblem';
import { checkSchemaProfile } from './checkSchemaProfile';
import { resolveAccess } from './resolveAccess';
import { resolvePipeline } from './resolvePipeline';
import { timeoutProblem } from './timeoutProblem';
import type { BuildProblem } from './BuildProblem';
import type { ToolDescriptor } from './Registry';
import type { CompiledTool } from './CompiledRegistry';
import { defaultToolName, TOOL_NAME_PATTERN } from './toolName';
import { scanParamHeaders } from '../headers/paramHeaders';
import { toolUiOf, withAppGuard } from '../apps/toolUi';

export interface ToolBuildEnv {
  readonly container: ContainerLike;
  readonly coerce: boolean;
  readonly logger: ToolLogger;
  readonly problems: BuildProblem[];
}

type ObjectSchema = JsonSchema & { type: 'object' };

/** Builds one tool from its recorded metadata; pushes problems and returns undefined when it cannot. */
export function buildTool(cls: Class, found: FoundMember<ToolArgs>, env: ToolBuildEnv): CompiledTool | undefined {
  const { member: tool, params, declaredOn } = found;
  const { methodName, options } = tool;
  const where = `${cls.name}.${methodName}`;
  const before = env.problems.length;
  const problem = (what: string, fix: string, at = where) => env.problems.push({ where: at, what, fix });
  const notOptions = optionsObjectProblem(where, '@Tool()', options, "@Tool({ name: 'get_weather', description: 'Current weather for a city.' })");
  if (notOptions) return void env.problems.push(notOptions);

  const name = options.name ?? defaultToolName(methodName);
  if (!TOOL_NAME_PATTERN.test(name)) {
    problem(`its tool name '${name}' is invalid`, 'use 1-128 characters of A-Z, a-z, 0-9, underscore, dot and hyphen: @Tool({ name: "valid_name" }).');
  }
  const timeout = options.timeoutMs === undefined ? undefined : timeoutProblem(options.timeoutMs);
  if (timeout) problem(`its timeoutMs is ${timeout}`, 'give the milliseconds a call may take: @Tool({ timeoutMs: 5_000 }).');
  const { compilePattern } = options;
  if (compilePattern !== undefined && typeof compilePattern !== 'function') {
    return void problem(`its compilePattern is ${typeof compilePattern}, not a function`, "give (source) => an object with test(value), or leave it out for JavaScript's RegExp.");
  }
  if (tool.isStatic) return void problem('is static', 'make it an instance method: tools run on an instance built by the container.');
  const method = (cls.prototype as Record<string, unknown>)[methodName];
  if (typeof method !== 'function') return void problem('is not a method', 'put @Tool on a method.');

  const designTypes = Reflect.getMetadata('design:paramtypes', declaredOn.prototype, methodName) as unknown[] | undefined;
  const arity = Math.max(designTypes?.length ?? 0, (method as (...a: unknown[]) => unknown).length);
  // Undecorated parameters matter only when each argument is a @Param; `input`/`inputSchema` methods take (input, ctx).
  const oneParamPerArgument = options.inputSchema === undefined && options.input === undefined && !params.some((p) => p.kind === 'args');
  checkParamDecorators(where, params, oneParamPerArgument ? arity : 0, env.problems, true);
  const ctxIndex = params.find((p) => p.kind === 'ctx')?.index;

  const inputCtx = createSchemaContext(where, env.problems);
  let inputSchema: ObjectSchema;
  let binding: ArgumentBinding;
  const argsParam = params.find((p) => p.kind === 'args');
  const inputClass = resolveClass(options.input, where, env.problems) ?? undefined;

  if (options.inputSchema !== undefined) {
    const raw = rawInputSchema(options.inputSchema, params, where, env.problems);
    if (!raw || !checkSchemaProfile(raw, `${where} inputSchema`, env.problems, compilePattern)) return undefined;
    inputSchema = raw;
    binding = { kind: 'raw', index: 0, ctxIndex: ctxIndex ?? 1, arity: Math.max(arity, 1) };
  } else if (inputClass || argsParam) {
    if (params.some((p) => p.kind === 'param')) {
      problem('mixes @Args() with @Param()', 'use either one @Args() DTO for the whole input or one @Param() per argument.');
    }
    const dto = inputClass ?? resolveArgsClass(argsParam!, designTypes, where, env.problems);
    if (!dto) return undefined;
    inputSchema = withDefs(dtoSchema(dto, inputCtx, { coerce: env.coerce }) as ObjectSchema, inputCtx);
    const dtoIndex = argsParam?.index ?? 0;
    binding = { kind: 'dto', cls: dto, index: dtoIndex, ctxIndex: ctxIndex ?? (argsParam ? undefined : 1), arity: Math.max(arity, dtoIndex + 1) };
  } else {
    const resolved = buildMemberParams(cls, declaredOn, methodName, params, {
      problems: env.problems,
      logger: env.logger,
      arrive: { as: 'json', coerce: env.coerce },
      noun: 'tool argument',
      compilePattern,
    });
    // Without it the problems are reported; the output and access checks below still run, to report theirs too.
    inputSchema = resolved?.argsSchema ?? { type: 'object' };
    binding = { kind: 'params', params: resolved?.bound ?? [], ctxIndex, arity };
  }

  // A derived schema is in the profile; only its patterns are left to try on the tool's compiler.
  if (compilePattern && options.inputSchema === undefined) checkSchemaProfile(inputSchema, `${where} input schema`, env.problems, compilePattern);
  const headers = scanParamHeaders(inputSchema);
  if (!headers.ok) for (const what of headers.problems) problem(`its input schema: ${what}`, 'fix the declaration: clients drop a tool whose x-mcp-header breaks a rule of SEP-2243.');
  const outputClass = options.outputSchema !== undefined ? undefined : resolveOutputClass(options.output, declaredOn, methodName, where, env.problems);
  let outputSchema: ObjectSchema | undefined;
  if (options.outputSchema !== undefined) {
    const raw = options.outputSchema as unknown;
    if (options.output !== undefined) problem('has both `output` and `outputSchema`', 'use one: a DTO class, or a raw JSON Schema.');
    else if (typeof raw !== 'object' || raw === null || (raw as JsonSchema).type !== 'object') {
      problem('has an `outputSchema` whose root is not `type: "object"`', "MCP structured results are objects: give { type: 'object', properties: { ... } }.");
    } else if (checkSchemaProfile(raw as JsonSchema, `${where} outputSchema`, env.problems, compilePattern)) outputSchema = structuredClone(raw) as ObjectSchema;
  } else if (outputClass) {
    const outputCtx = createSchemaContext(`${where} (output)`, env.problems);
    outputSchema = withDefs(dtoSchema(outputClass, outputCtx, { direction: 'output' }) as ObjectSchema, outputCtx);
    if (compilePattern) checkSchemaProfile(outputSchema, `${where} output schema`, env.problems, compilePattern);
  }
  const access = resolveAccess(found.access, where, env.problems);
  const ui = options.ui === undefined ? undefined : toolUiOf(options.ui, where, env.problems);
  const resolvedPipeline = resolvePipeline(found.pipeline, where, env.problems);
  // A tool only the view calls is for clients that can show views.
  const pipeline = ui?.appOnly ? withAppGuard(resolvedPipeline) : resolvedPipeline;
  if (env.problems.length > before) return undefined;

  const descriptor: ToolDescriptor = stripUndefined({
    name,
    title: options.title,
    description: options.description,
    icons: options.icons,
    inputSchema,
    outputSchema,
    annotations: options.annotations,
    // 2025-11-25's field (2026-07-28 has none: the SDK drops it there). That era serves a task tool as a plain call, so even a required one is 'optional'.
    execution: options.task ? { taskSupport: 'optional' as const } : undefined,
    _meta: ui ? { ...options._meta, ...ui.meta } : options._meta,
  });
  const spec = { name, cls, methodName, binding, inputSchema, outputSchema, compilePattern, ...env };
  const call = compileToolCall(spec);
  return Object.freeze({
    name,
    descriptor,
    target: cls,
    methodName,
    usesContext: binding.ctxIndex !== undefined,
    call,
    callAs: (as: string) => compileToolCall({ ...spec, name: as }),
    ...(access && { access }),
    ...(pipeline && { pipeline }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    ...(compilePattern && { compilePattern }),
  });
}

function resolveArgsClass(p: ParamArgs, designTypes: unknown[] | undefined, where: string, problems: BuildProblem[]): Class | undefined {
  const at = `${where} param #${p.index}`;
  let cls: unknown;
  try {
    cls = p.dto ? p.dto() : designTypes?.[p.index];
  } catch (error) {
    problems.push({ where: at, what: `its @Args(() => Dto) thunk threw: ${(error as Error).message}`, fix: 'return a class that is defined when the app starts.' });
    return undefined;
  }
  if (typeof cls === 'function' && cls !== Object && cls !== Array && cls !== String && cls !== Number && cls !== Boolean && cls !== Promise) return cls as Class;
  const why = designTypes
    ? `its type is reflected as ${typeof cls === 'function' ? cls.name : String(cls)}, not a DTO class`
    : 'decorator metadata was not emitted (esbuild, tsx, vitest and Bun drop it)';
  problems.push({ where: at, what: `@Args() needs a class-validator DTO class, but ${why}`, fix: 'declare the parameter with a DTO class type, or name it: @Args(() => SearchInput).' });
  return undefined;
}

function resolveClass(ref: Class | ClassThunk | undefined, where: string, problems: BuildProblem[]): Class | undefined {
  if (ref === undefined) return undefined;
  let reason: string;
  try {
    // An arrow function has no prototype; a class always has one.
    const cls = ref.prototype === undefined ? (ref as ClassThunk)() : ref;
    if (typeof cls === 'function') return cls as Class;
    reason = `it returned ${typeof cls}`;
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error);
  }
  problems.push({ where, what: `its input/output class cannot be resolved: ${reason}`, fix: 'pass the class, or an arrow function returning it: { output: () => Report }.' });
  return undefined;
}

function resolveOutputClass(ref: Class | ClassThunk | undefined, declaredOn: Class, methodName: string, where: string, problems: BuildProblem[]): Class | undefined {
  if (ref !== undefined) return resolveClass(ref, where, problems);
  // A synchronous method declared to return a class-validator DTO gets that class as its output.
  const returned = Reflect.getMetadata('design:returntype', declaredOn.prototype, methodName) as unknown;
  return typeof returned === 'function' && hasClassValidatorMetadata(returned as Class) ? (returned as Class) : undefined;
}

function withDefs(schema: ObjectSchema, ctx: SchemaContext): ObjectSchema {
  return Object.keys(ctx.defs).length > 0 ? { ...schema, $defs: ctx.defs } : schema;
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/** Checks a raw `inputSchema` (served unchanged; its keywords are checked by the caller) and that the method takes no per-argument decorators. */
function rawInputSchema(schema: JsonSchema, params: readonly ParamArgs[], where: string, problems: BuildProblem[]): ObjectSchema | undefined {
  const before = problems.length;
  if (typeof schema !== 'object' || schema === null || schema.type !== 'object') {
    problems.push({ where, what: 'has an `inputSchema` whose root is not `type: "object"`', fix: "MCP tool inputs are objects: give { type: 'object', properties: { ... } }." });
  }
  if (params.some((p) => p.kind === 'param' || p.kind === 'args')) {
    problems.push({ where, what: 'has both `inputSchema` and @Param/@Args', fix: 'use one: the method receives the whole argument object with `inputSchema`.' });
  }
  return problems.length === before ? (structuredClone(schema) as ObjectSchema) : undefined;
}
