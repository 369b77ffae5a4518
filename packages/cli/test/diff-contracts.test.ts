import { runCli } from '../src/runCli';
import { diffContracts } from '../src/contract/diffContracts';
import { contractOf } from './helpers/contractOf';
import { memoryIo } from './helpers/memoryIo';
import type { Contract, Schema, ToolEntry } from '../src/contract/Contract';

const tool = (inputSchema: Schema, more: Partial<ToolEntry> = {}): ToolEntry => ({ name: 't', description: 'd', inputSchema, ...more });
const object = (properties: Record<string, Schema>, required: string[] = [], more: Schema = {}): Schema => ({ type: 'object', properties, required, additionalProperties: false, ...more });
const summary = (before: Contract, after: Contract) => diffContracts(before, after).map((c) => `${c.severity}: ${c.where}: ${c.message}`);

describe('schema diff classification', () => {
  it.each<[string, Schema, Schema, string[]]>([
    ['new required parameter', object({}), object({ a: { type: 'string' } }, ['a']), ["breaking: tool 't' input a: new required parameter: existing calls lack it"]],
    ['new optional parameter', object({}), object({ a: { type: 'string' } }), ["additive: tool 't' input a: new optional parameter"]],
    ['removed parameter', object({ a: { type: 'string' } }), object({}), ["breaking: tool 't' input a: parameter removed: clients that still send it are rejected"]],
    ['optional -> required', object({ a: { type: 'string' } }), object({ a: { type: 'string' } }, ['a']), ["breaking: tool 't' input a: now required: calls without it are rejected"]],
    ['required -> optional', object({ a: { type: 'string' } }, ['a']), object({ a: { type: 'string' } }), ["additive: tool 't' input a: now optional"]],
    ['narrowed type', object({ a: { type: 'number' } }), object({ a: { type: 'integer' } }), ["breaking: tool 't' input a: type narrowed from number to integer"]],
    ['widened type', object({ a: { type: 'integer' } }), object({ a: { type: ['integer', 'string'] } }), ["additive: tool 't' input a: type widened from integer to integer | string"]],
    ['removed enum value', object({ a: { type: 'string', enum: ['x', 'y'] } }), object({ a: { type: 'string', enum: ['x'] } }), [`breaking: tool 't' input a: enum value "y" removed`]],
    ['added enum value', object({ a: { type: 'string', enum: ['x'] } }), object({ a: { type: 'string', enum: ['x', 'y'] } }), [`additive: tool 't' input a: enum value "y" added`]],
    ['tighter maximum', object({ a: { type: 'number', maximum: 10 } }), object({ a: { type: 'number', maximum: 5 } }), ["breaking: tool 't' input a: maximum changed from 10 to 5"]],
    ['looser minLength', object({ a: { type: 'string', minLength: 3 } }), object({ a: { type: 'string' } }), ["additive: tool 't' input a: minLength 3 removed"]],
    [
      'nested and array paths',
      object({ f: object({ tags: { type: 'array', items: { type: 'string' } } }) }),
      object({ f: object({ tags: { type: 'array', items: { type: 'integer' } } }) }),
      ["breaking: tool 't' input f.tags[]: type changed from string to integer"],
    ],
    [
      '$ref into $defs',
      object({ f: { $ref: '#/$defs/F' } }, [], { $defs: { F: object({ n: { type: 'number' } }) } }),
      object({ f: { $ref: '#/$defs/F' } }, [], { $defs: { F: object({ n: { type: 'string' } }) } }),
      ["breaking: tool 't' input f.n: type changed from number to string"],
    ],
    ['description only', object({ a: { type: 'string', description: 'x' } }), object({ a: { type: 'string', description: 'y' } }), ["info: tool 't' input a: description changed"]],
  ])('input: %s', (_, before, after, expected) => {
    expect(summary(contractOf([tool(before)]), contractOf([tool(after)]))).toEqual(expected);
  });

  it('output: a removed required field and a new enum value break readers; a new field does not', () => {
    const before = tool(object({}), { outputSchema: object({ a: { type: 'string' }, s: { type: 'string', enum: ['ok'] } }, ['a', 's']) });
    const after = tool(object({}), { outputSchema: object({ s: { type: 'string', enum: ['ok', 'maybe'] }, b: { type: 'number' } }, ['s', 'b']) });
    expect(summary(contractOf([before]), contractOf([after]))).toEqual([
      "breaking: tool 't' output a: field removed from the result: clients that read it break",
      "additive: tool 't' output b: new field in the result",
      `breaking: tool 't' output s: enum value "maybe" added`,
    ]);
  });

  it('tools, resources and prompts: removed is breaking, added is additive', () => {
    const before = contractOf([tool(object({}), { name: 'old' })], { resources: [{ uri: 'mem://a', name: 'a' }], prompts: [{ name: 'p', arguments: [{ name: 'x' }] }] });
    const after = contractOf([tool(object({}), { name: 'new' })], { resources: [], prompts: [{ name: 'p', arguments: [{ name: 'x', required: true }, { name: 'y' }] }] });
    expect(summary(before, after)).toEqual([
      "breaking: tool 'old': tool removed",
      "additive: tool 'new': new tool",
      "breaking: resource 'mem://a': resource removed",
      "breaking: prompt 'p' argument x: now required",
      "additive: prompt 'p' argument y: new optional argument",
    ]);
  });

  it('finds nothing between identical contracts', () => {
    const c = contractOf([tool(object({ a: { type: 'string', enum: ['x'] } }, ['a']))]);
    expect(diffContracts(c, structuredClone(c))).toEqual([]);
  });

  it('toolwright schema takes the server as its argument: an --entry option is refused, where it was accepted and the default server snapshotted', async () => {
    const io = memoryIo(process.cwd());
    expect(await runCli(['schema', 'snapshot', '--entry', 'dist/other.js'], io)).toBe(2);
    expect(io.errors()).toContain("Unknown option '--entry'. See 'toolwright schema --help'.");
  });
});
