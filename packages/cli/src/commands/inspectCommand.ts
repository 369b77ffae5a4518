import { CONNECT_HELP, CONNECT_OPTIONS } from '../client/ServerTarget';
import type { Command, ParsedArgs } from '../cli/Command';
import { count } from '../cli/count';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption } from '../cli/parseCommandArgs';
import type { Style } from '../cli/style';
import { jsonText, terminalSafeValue } from '../cli/terminalSafe';
import { UsageError } from '../cli/UsageError';
import type { Contract, Schema } from '../contract/Contract';
import { loadContract } from '../contract/loadContract';
import { schemaType } from '../contract/schemaType';
import { lintContract, type LintIssue } from '../lint/lintContract';

export const inspectCommand: Command = {
  name: 'inspect',
  serverArgs: true,
  summary: 'Show tools, resources and prompts as a client sees them; --lint for LLM-readiness',
  options: {
    json: { type: 'boolean' },
    lint: { type: 'boolean' },
    ...CONNECT_OPTIONS,
  },
  help: `Usage: toolwright inspect [server] [--json] [--lint] [-- <server args>]

Connect to the server (start it over stdio, or reach its URL over Streamable HTTP), list
everything it serves (tools/list, resources/list, resources/templates/list, prompts/list,
every page) and print it: the schemas exactly as a client receives them.

Arguments:
  [server]           the compiled server to start over stdio (default: package.json "main",
                     else dist/server.js), or the URL of a running Streamable HTTP server

Options:
      --json         print the contract as JSON (the format of 'schema snapshot')
      --lint         check LLM-readiness: missing descriptions on tools and parameters,
                     vague or near-duplicate names, deep nesting, enums without a
                     description, untyped parameters, invalid tool names. It reads what
                     the server serves; what only the compiler sees (DTO properties without
                     a decorator, \`?\` on @Param) is @toolwright/eslint-plugin's: npm run lint
${CONNECT_HELP}
  -h, --help         show this help

Exit codes: 0 done (with --lint: no errors; warnings allowed), 1 lint errors,
2 invalid arguments, 3 the server failed to start or answer.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one entry, got: ${args.positionals.join(' ')}.`);
    const contract = await loadContract(args, io, args.positionals[0]);
    const issues = booleanOption(args, 'lint') ? lintContract(contract) : [];
    if (booleanOption(args, 'json')) {
      println(io.stdout, jsonText(booleanOption(args, 'lint') ? { ...contract, lint: issues } : contract));
    } else {
      // Every name, description and schema keyword the server sent is shown, never obeyed by the terminal.
      printContract(terminalSafeValue(contract), io);
      if (booleanOption(args, 'lint')) printLint(terminalSafeValue(issues), io);
    }
    return issues.some((i) => i.severity === 'error') ? ExitCode.Failure : ExitCode.Ok;
  },
};

function printContract(contract: Contract, io: Io): void {
  const o = io.out;
  println(
    io.stdout,
    `${o.bold(`${contract.server.name} ${contract.server.version}`)}: ${count(contract.tools.length, 'tool')}, ${count(contract.resources.length + contract.resourceTemplates.length, 'resource')}, ${count(contract.prompts.length, 'prompt')}`,
  );
  if (contract.tools.length > 0) println(io.stdout, `\n${o.bold('Tools')}`);
  for (const tool of contract.tools) {
    const hints = Object.entries(tool.annotations ?? {})
      .filter(([key, value]) => key.endsWith('Hint') && value === true)
      .map(([key]) => key.replace(/Hint$/, '').replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));
    println(io.stdout, `\n  ${o.cyan(tool.name)}${tool.title ? ` ${o.dim(`(${tool.title})`)}` : ''}${hints.length ? ` ${o.dim(`[${hints.join(', ')}]`)}` : ''}`);
    if (tool.description) println(io.stdout, `    ${tool.description}`);
    printParams(tool.inputSchema, '    ', o, io);
    if (tool.outputSchema) println(io.stdout, `    ${o.dim('returns')} ${Object.keys(tool.outputSchema.properties ?? {}).join(', ') || 'an object'} ${o.dim('(structured)')}`);
  }
  const resources = [...contract.resources.map((r) => ({ id: r.uri, ...r })), ...contract.resourceTemplates.map((r) => ({ id: r.uriTemplate, ...r }))];
  if (resources.length > 0) println(io.stdout, `\n${o.bold('Resources')}`);
  for (const r of resources) println(io.stdout, `  ${o.cyan(r.id)}${r.mimeType ? ` ${o.dim(r.mimeType)}` : ''}${r.description ? `\n    ${r.description}` : ''}`);
  if (contract.prompts.length > 0) println(io.stdout, `\n${o.bold('Prompts')}`);
  for (const p of contract.prompts) {
    const params = (p.arguments ?? []).map((a) => (a.required ? a.name : `${a.name}?`)).join(', ');
    println(io.stdout, `  ${o.cyan(p.name)}(${params})${p.description ? `\n    ${p.description}` : ''}`);
  }
}

function printParams(schema: Schema, indent: string, o: Style, io: Io): void {
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) return void println(io.stdout, `${indent}${o.dim('no parameters')}`);
  const required = new Set(schema.required ?? []);
  const width = Math.max(...properties.map(([name]) => name.length));
  for (const [name, property] of properties) {
    const facts = [schemaType(property), required.has(name) ? 'required' : 'optional'];
    if (property.default !== undefined) facts.push(`default ${JSON.stringify(property.default)}`);
    for (const key of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'pattern', 'format'] as const) {
      if (property[key] !== undefined) facts.push(`${key} ${String(property[key])}`);
    }
    println(io.stdout, `${indent}${name.padEnd(width)}  ${o.dim(facts.join(', '))}${property.description ? `  ${property.description}` : ''}`);
    const nested = property.type === 'object' ? property : property.items?.type === 'object' ? property.items : undefined;
    if (nested) printParams(nested, `${indent}  ${' '.repeat(width)}  `, o, io);
  }
}

/** What --lint cannot see from the served contract, said once after its findings. */
const SOURCE_LINT_HINT =
  'These checks read what the server serves. For what only the compiler sees (DTO properties without a decorator, `?` on a @Param, types the build refuses), run `npm run lint` (@toolwright/eslint-plugin).';

function printLint(issues: LintIssue[], io: Io): void {
  const o = io.out;
  println(io.stdout, `\n${o.bold('Lint')}`);
  if (issues.length === 0) {
    println(io.stdout, `  ${o.green('No problems found.')}`);
    return void println(io.stdout, `  ${o.dim(SOURCE_LINT_HINT)}`);
  }
  for (const issue of issues) {
    const label = issue.severity === 'error' ? o.red('error  ') : o.yellow('warning');
    println(io.stdout, `  ${label} ${issue.where}: ${issue.message} ${o.dim(`(${issue.rule})`)}`);
  }
  const errors = issues.filter((i) => i.severity === 'error').length;
  println(io.stdout, `\n  ${count(errors, 'error')}, ${count(issues.length - errors, 'warning')}`);
  println(io.stdout, `  ${o.dim(SOURCE_LINT_HINT)}`);
}
