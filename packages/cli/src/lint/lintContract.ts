import { count } from '../cli/count';
import type { Contract, Schema } from '../contract/Contract';

export interface LintIssue {
  readonly severity: 'error' | 'warning';
  /** A stable id, e.g. `tool-description`. */
  readonly rule: string;
  readonly where: string;
  readonly message: string;
}

/** Words that tell a model nothing about what a tool does or what a parameter holds. */
const VAGUE_TOOL_NAMES = new Set([
  'run',
  'do',
  'execute',
  'exec',
  'process',
  'handle',
  'handler',
  'tool',
  'action',
  'helper',
  'call',
  'invoke',
  'main',
  'test',
  'get',
  'set',
  'data',
  'util',
  'misc',
  'query',
]);
const VAGUE_PARAM_NAMES = new Set(['data', 'input', 'value', 'val', 'arg', 'args', 'param', 'params', 'obj', 'object', 'thing', 'stuff', 'x', 'payload', 'options', 'opts']);
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const MAX_DEPTH = 3;
const MAX_PARAMS = 10;
const MIN_DESCRIPTION = 20;

/**
 * Checks what the model will read: a tool is chosen by its name and description, and called
 * right only when every parameter says what it wants. Errors make `inspect --lint` fail;
 * warnings are advice.
 */
export function lintContract(contract: Contract): LintIssue[] {
  const issues: LintIssue[] = [];
  const report: Report = (severity, rule, where, message) => issues.push({ severity, rule, where, message });

  const seen = new Map<string, string>();
  for (const tool of contract.tools) {
    const where = `tool '${tool.name}'`;
    if (!TOOL_NAME.test(tool.name)) report('error', 'tool-name', where, 'names are 1-128 characters of A-Z a-z 0-9 _ - . (MCP 2025-11-25); rename it with @Tool({ name })');
    const key = tool.name.toLowerCase().replace(/[-_.]/g, '');
    const twin = seen.get(key);
    if (twin) report('error', 'duplicate-name', where, `differs from tool '${twin}' only in case or separators; models confuse them. Merge them or name them apart`);
    seen.set(key, tool.name);
    if (VAGUE_TOOL_NAMES.has(key) || key.length < 3) report('warning', 'vague-name', where, 'the name does not say what the tool does; use a verb and an object, e.g. get_weather');

    const description = tool.description?.trim() ?? '';
    if (description === '') report('error', 'tool-description', where, 'no description: the model chooses tools by it. Add @Tool({ description }) saying what it does and when to use it');
    else if (description.length < MIN_DESCRIPTION) report('warning', 'tool-description', where, `the description is ${count(description.length, 'character')}; say what it does and when to use it`);

    const params = Object.entries(tool.inputSchema.properties ?? {});
    if (params.length > MAX_PARAMS) report('warning', 'too-many-params', where, `${params.length} parameters; models fill long forms badly. Split the tool or group parameters in a DTO`);
    lintSchema(tool.inputSchema, tool.inputSchema, `${where} input`, '', 0, report);
  }
  for (const prompt of contract.prompts) {
    if (!prompt.description?.trim()) report('warning', 'prompt-description', `prompt '${prompt.name}'`, 'no description: clients show it when users pick a prompt');
    for (const arg of prompt.arguments ?? []) {
      if (!arg.description?.trim()) report('warning', 'param-description', `prompt '${prompt.name}' argument ${arg.name}`, 'no description');
    }
  }
  for (const resource of [...contract.resources, ...contract.resourceTemplates]) {
    const id = 'uri' in resource ? resource.uri : resource.uriTemplate;
    if (!resource.description?.trim()) report('warning', 'resource-description', `resource '${id}'`, 'no description: models decide from it whether to read the resource');
  }
  return issues;
}

type Report = (severity: LintIssue['severity'], rule: string, where: string, message: string) => void;

/** Lints the properties of an object schema; `path` is where it sits inside the tool's input. */
function lintSchema(schema: Schema, root: Schema, label: string, path: string, depth: number, report: Report): void {
  const resolved = resolveRef(schema, root);
  if (depth > MAX_DEPTH && resolved.properties) {
    report('warning', 'deep-nesting', `${label} ${path}`, `objects nested ${depth} levels deep; models fill flat inputs more reliably. Flatten it or split the tool`);
    return;
  }
  for (const [name, property] of Object.entries(resolved.properties ?? {})) {
    const childPath = path ? `${path}.${name}` : name;
    const at = `${label} ${childPath}`;
    const target = resolveRef(property, root);
    const described = (property.description ?? target.description)?.trim();
    if (!described) report('error', 'param-description', at, "no description: say what the value means, with an example, e.g. @Param('city', { description: \"City name, e.g. 'Tokyo'\" })");
    if (VAGUE_PARAM_NAMES.has(name.toLowerCase())) report('warning', 'vague-name', at, 'the name does not say what the value is');
    const enumValues = target.enum ?? resolveRef(target.items ?? {}, root).enum;
    if (enumValues && !described) report('warning', 'enum-description', at, `enum (${enumValues.map((v) => JSON.stringify(v)).join(', ')}) without a description: say what each value means`);
    if (target.type === undefined && !target.enum && !target.anyOf && !target.oneOf && target.const === undefined && !target.$ref) {
      report('warning', 'untyped', at, 'accepts any JSON value; give it a type (the @Param type option, or a DTO)');
    }
    lintSchema(target, root, label, childPath, depth + 1, report);
    if (target.items) lintSchema(target.items, root, label, `${childPath}[]`, depth + 1, report);
  }
}

function resolveRef(schema: Schema, root: Schema): Schema {
  const match = typeof schema.$ref === 'string' ? /^#\/(\$defs|definitions)\/(.+)$/.exec(schema.$ref) : null;
  return (match && (root[match[1]] as Record<string, Schema> | undefined)?.[match[2]]) || schema;
}
