import type { ToolContext } from '../context/ToolContext';
import type { ToolResult } from '../content/ToolResult';
import type { CompiledTool } from '../registry/CompiledRegistry';
import type { BuildProblem } from '../registry/BuildProblem';
import type { ToolDescriptor } from '../registry/Registry';
import { TOOL_NAME_PATTERN } from '../registry/toolName';
import type { JsonSchema } from '../schema/JsonSchema';
import { compileProfileSchema } from '../validation/compileSchemaValidator';
import type { PatternCompiler } from '../validation/PatternCompiler';
import { jsonEqual } from '../validation/jsonEqual';
import { describeProfileIssues, schemaProfileIssues } from '../validation/schemaProfile';
import type { ValidationIssue, ValidationOutcome } from '../validation/ValidationIssue';
import { invalidArguments } from '../invoke/compileToolCall';
import { toolErrorResult } from '../invoke/toolFailure';
import type { ArgumentTransform, ToolTransform } from './ToolTransform';

type Check = (value: unknown) => { ok: true } | { ok: false; issues: readonly ValidationIssue[] };
/** Bounds a narrowing may only lower (upper bounds) or raise (lower bounds). */
const UPPER = ['maximum', 'exclusiveMaximum', 'maxLength', 'maxItems', 'maxProperties'] as const;
const LOWER = ['minimum', 'exclusiveMinimum', 'minLength', 'minItems', 'minProperties'] as const;
/** Keywords a narrowing may replace outright: the build proves the new value narrower (bounds, `type`, `enum`, `const`) or it is an annotation. */
const REPLACEABLE: ReadonlySet<string> = new Set([...UPPER, ...LOWER, 'type', 'enum', 'const', 'title', 'description', 'default', 'examples', 'deprecated', '$comment']);

/**
 * The one place tool transforms are applied (decorator, mount, OpenAPI and proxy sources):
 * returns `tool` as clients should see it, with hidden arguments out of its input schema and
 * filled in on each call, narrowed arguments checked before the tool's own checks, and the
 * new name and description. Every problem is pushed at `where`; then it returns undefined.
 */
export function transformTool(tool: CompiledTool, transform: ToolTransform, where: string, problems: BuildProblem[]): CompiledTool | undefined {
  const before = problems.length;
  const problem = (what: string, fix: string) => problems.push({ where, what, fix });
  if (typeof transform !== 'object' || transform === null)
    return void problem(`its transform is ${transform === null ? 'null' : typeof transform}`, 'give an object: { name?, description?, arguments? }.');
  const name = transform.name ?? tool.name;
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) problem(`its new name ${JSON.stringify(name)} is invalid`, 'use 1-128 characters of A-Z, a-z, 0-9, underscore, dot and hyphen.');
  const schema = tool.descriptor.inputSchema as JsonSchema & { type: 'object' };
  const properties: Record<string, JsonSchema> = { ...(schema.properties ?? {}) };
  let required = schema.required ?? [];
  const hidden: { name: string; value?: unknown; compute?: (ctx: ToolContext) => unknown }[] = [];
  const narrowed: { name: string; check: Check }[] = [];
  const argumentChanges = transform.arguments ?? {};
  for (const arg of Object.keys(argumentChanges)) {
    const change = argumentChanges[arg] as ArgumentTransform;
    const at = `argument '${arg}'`;
    if (!Object.hasOwn(properties, arg)) {
      problem(`its transform names ${at}, which the tool does not have`, `use one of: ${Object.keys(properties).join(', ') || '(it has none)'}.`);
      continue;
    }
    if (typeof change !== 'object' || change === null) {
      problem(`its transform for ${at} is ${change === null ? 'null' : typeof change}`, 'give an object: { value }, { compute }, { narrow } or { description }.');
      continue;
    }
    const original = properties[arg]!;
    const hides = Object.hasOwn(change, 'value') || change.compute !== undefined;
    if (Object.hasOwn(change, 'value') && change.compute !== undefined) problem(`its transform gives ${at} both \`value\` and \`compute\``, 'keep one.');
    if (change.compute !== undefined && typeof change.compute !== 'function') problem(`its transform's \`compute\` for ${at} is not a function`, 'give (ctx) => value.');
    if (hides && (change.narrow !== undefined || change.description !== undefined))
      problem(`its transform hides ${at} and also narrows or describes it`, 'a hidden argument is not shown: drop `narrow` and `description`.');
    if (hides) {
      const fits = fitsOriginal(schema, arg, original, tool.compilePattern);
      if (Object.hasOwn(change, 'value') && fits) {
        const outcome = fits({ [arg]: change.value });
        if (!outcome.ok)
          problem(`its transform's value for ${at} does not fit the argument's schema: ${outcome.issues.map((i) => `${i.path || arg}: ${i.message}`).join('; ')}`, 'give a value the tool accepts.');
      }
      delete properties[arg];
      required = required.filter((r) => r !== arg);
      hidden.push({ name: arg, ...(Object.hasOwn(change, 'value') ? { value: change.value } : { compute: change.compute }) });
      continue;
    }
    let shown: JsonSchema = original;
    if (change.narrow !== undefined) {
      const narrow = change.narrow;
      const issues = typeof narrow === 'object' && narrow !== null ? schemaProfileIssues(narrow) : [];
      if (typeof narrow !== 'object' || narrow === null) problem(`its transform's \`narrow\` for ${at} is not a schema`, "give keywords such as { enum: ['a', 'b'] } or { maximum: 10 }.");
      else if (issues.length > 0) problem(`its transform's \`narrow\` for ${at}: ${describeProfileIssues(issues).what}`, describeProfileIssues(issues).fix);
      else {
        const widens = widened(original, narrow);
        if (widens) problem(`its transform's \`narrow\` for ${at} widens the schema (${widens})`, 'a transform may only narrow what the tool accepts.');
        const fits = fitsOriginal(schema, arg, original, tool.compilePattern);
        for (const v of fits ? [...(narrow.enum ?? []), ...(Object.hasOwn(narrow, 'const') ? [narrow.const] : [])] : []) {
          if (!fits!({ [arg]: v }).ok) problem(`its transform's \`narrow\` for ${at} allows ${JSON.stringify(v)}, which the tool does not accept`, 'list only values the tool accepts.');
        }
        // Checked merged with the argument's own schema, coercing as a `coerce` app would, so "50" meets `maximum: 10` too,
        // and with the tool's own pattern compiler; the app's `narrow` alone (the fallback) runs on RegExp.
        const check = fitsOriginal(schema, arg, { ...original, ...narrow }, tool.compilePattern, true) ?? compileProfileSchema(argumentSchema({}, arg, narrow));
        narrowed.push({ name: arg, check: (value) => check({ [arg]: value }) });
        shown = mergeNarrow(original, narrow);
      }
    }
    if (change.description !== undefined) shown = { ...shown, description: change.description };
    properties[arg] = shown;
  }
  const description = typeof transform.description === 'function' ? transform.description(tool.descriptor.description) : (transform.description ?? tool.descriptor.description);
  if (description !== undefined && typeof description !== 'string') problem("its transform's description is not a string", 'give a string, or a function returning one.');
  if (transform.title !== undefined && typeof transform.title !== 'string')
    problem(`its transform's title is ${typeof transform.title}, not a string`, 'give a string (clients drop a list with a tool whose title is not one).');
  if (problems.length > before) return undefined;

  const inputSchema = { ...schema, properties, ...(required.length > 0 ? { required } : {}) };
  if (required.length === 0) delete inputSchema.required;
  const descriptor: ToolDescriptor = { ...tool.descriptor, name, inputSchema, ...(description !== undefined && { description }), ...(transform.title !== undefined && { title: transform.title }) };
  // The tool's own messages name it as this transform serves it, and as a mount renames it after.
  const callAs = (as: string): CompiledTool['call'] => {
    const inner = as === tool.name ? tool.call : (tool.callAs?.(as) ?? tool.call);
    return hidden.length === 0 && narrowed.length === 0 ? inner : transformedCall(inner, as, hidden, narrowed);
  };
  return Object.freeze({ ...tool, name, descriptor, call: callAs(name), callAs, usesContext: tool.usesContext || hidden.some((h) => h.compute !== undefined) });
}

/** Refuses hidden arguments a client sent, checks the narrowed ones, fills in the hidden ones, then calls the tool. */
function transformedCall(
  call: CompiledTool['call'],
  name: string,
  hidden: readonly { name: string; value?: unknown; compute?: (ctx: ToolContext) => unknown }[],
  narrowed: readonly { name: string; check: Check }[],
): CompiledTool['call'] {
  return async (rawArgs, ctx, scope): Promise<ToolResult> => {
    const args = rawArgs === undefined || rawArgs === null ? {} : rawArgs;
    if (typeof args !== 'object' || Array.isArray(args)) return call(rawArgs, ctx, scope);
    const given = args as Record<string, unknown>;
    const issues: ValidationIssue[] = [];
    for (const h of hidden) if (Object.hasOwn(given, h.name)) issues.push({ path: h.name, message: 'is set by the server and may not be sent; leave it out' });
    for (const n of narrowed) {
      if (!Object.hasOwn(given, n.name)) continue;
      const outcome = n.check(given[n.name]);
      if (!outcome.ok) issues.push(...outcome.issues);
    }
    if (issues.length > 0) return invalidArguments(name, issues);
    const filled: Record<string, unknown> = { ...given };
    for (const h of hidden) {
      let value = h.value;
      try {
        if (h.compute) value = await h.compute(ctx as ToolContext);
      } catch {
        return toolErrorResult(`Tool '${name}' failed: the server could not work out its argument '${h.name}'. This is the server's configuration, not your arguments.`);
      }
      Object.defineProperty(filled, h.name, { value, enumerable: true, writable: true, configurable: true });
    }
    return call(filled, ctx, scope);
  };
}

/**
 * A validator of `{ [arg]: value }` against the argument's own schema, or undefined when that
 * schema is outside the profile (a proxied server's may be) or holds a pattern the tool's
 * `compilePattern` refuses: then constants and enum values are left for the tool itself to
 * check on each call.
 */
function fitsOriginal(root: JsonSchema, arg: string, schema: JsonSchema, compilePattern: PatternCompiler | undefined, coerce = false): ((value: unknown) => ValidationOutcome) | undefined {
  const wrapped = argumentSchema(root, arg, schema);
  if (schemaProfileIssues(wrapped).length > 0) return undefined;
  try {
    return compileProfileSchema(wrapped, { coerce, compilePattern });
  } catch {
    return undefined;
  }
}

/** An object schema with just `arg`, keeping the root's `$defs` for its `$ref`s. */
function argumentSchema(root: JsonSchema, arg: string, schema: JsonSchema): JsonSchema {
  return { type: 'object', properties: Object.fromEntries([[arg, schema]]) as Record<string, JsonSchema>, ...(root.$defs && { $defs: root.$defs }) };
}

/**
 * The argument's schema as clients see it: `narrow` merged into `original`. A keyword the
 * build cannot prove narrower (a second `pattern`, another `format`, `multipleOf`, `items`...)
 * does not replace the original one, which the tool still enforces: it is added under `allOf`,
 * so the advertised schema accepts what the call accepts.
 */
function mergeNarrow(original: JsonSchema, narrow: JsonSchema): JsonSchema {
  const merged: JsonSchema = { ...original };
  const added: JsonSchema = {};
  for (const k of Object.keys(narrow)) {
    if (!Object.hasOwn(original, k) || REPLACEABLE.has(k) || jsonEqual(original[k], narrow[k])) merged[k] = narrow[k];
    else added[k] = narrow[k];
  }
  if (Object.keys(added).length > 0) merged.allOf = [...(Array.isArray(merged.allOf) ? merged.allOf : []), added];
  return merged;
}

/** The first bound `narrow` loosens, as text, or undefined. */
function widened(original: JsonSchema, narrow: JsonSchema): string | undefined {
  for (const k of UPPER)
    if (typeof original[k] === 'number' && typeof narrow[k] === 'number' && (narrow[k] as number) > (original[k] as number)) return `${k} ${String(narrow[k])} > ${String(original[k])}`;
  for (const k of LOWER)
    if (typeof original[k] === 'number' && typeof narrow[k] === 'number' && (narrow[k] as number) < (original[k] as number)) return `${k} ${String(narrow[k])} < ${String(original[k])}`;
  if (narrow.type !== undefined && original.type !== undefined && JSON.stringify(narrow.type) !== JSON.stringify(original.type)) {
    const from = ([] as unknown[]).concat(original.type);
    if (!([] as unknown[]).concat(narrow.type).every((t) => from.includes(t) || (t === 'integer' && from.includes('number')))) return `type ${JSON.stringify(narrow.type)}`;
  }
  return undefined;
}
