import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { BuildError, type Class } from '@toolwright/core';
import { createApp } from '@toolwright/server';
import { createTestClient } from '@toolwright/server/testing';
import { configs } from '../src/index';
import { Fine, Loose, Refused } from './fixtures/param-types/paramTypes.tools';

const folder = join(__dirname, 'fixtures', 'param-types');
const file = join(folder, 'paramTypes.tools.ts');
const source = readFileSync(file, 'utf8');

/** The lines of the `@Param` decorators of one class of the fixture. */
function paramLines(cls: Class): number[] {
  const lines = source.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`export class ${cls.name} `));
  const end = lines.findIndex((l, i) => i > start && l === '}');
  return lines.flatMap((l, i) => (i > start && i < end ? [...l.matchAll(/@Param\(/g)].map(() => i + 1) : []));
}

/** The lines param-type-supported flags in the fixture, one entry per finding. */
async function flaggedLines(): Promise<number[]> {
  const eslint = new ESLint({
    cwd: folder,
    overrideConfigFile: true,
    overrideConfig: [{ ...configs.recommended, rules: { '@toolwright/param-type-supported': 'error' } }],
  });
  const [result] = await eslint.lintText(source, { filePath: file });
  expect(result.messages.filter((m) => m.fatal)).toEqual([]);
  return result.messages.filter((m) => m.ruleId === '@toolwright/param-type-supported').map((m) => m.line);
}

const toolNames = (cls: Class) => Object.getOwnPropertyNames(cls.prototype).filter((n) => n !== 'constructor');

/** Calls each tool of an app built from one class with an argument, and returns which calls it refused. */
async function refusedCalls(cls: Class, calls: Record<string, Record<string, unknown>>): Promise<Record<string, boolean>> {
  const app = await createApp({ name: 'param-types', version: '1.0.0', tools: [cls] });
  const client = await createTestClient(app);
  try {
    const refused: Record<string, boolean> = {};
    for (const [name, args] of Object.entries(calls)) refused[name] = (await client.callTool({ name, arguments: args })).isError === true;
    return refused;
  } finally {
    await client.close();
  }
}

// A value each type forbids, by tool; Loose and Fine have tools of the same names.
const forbidden = { color: { c: 'blue' }, level: { l: 7 }, only: { o: 'other' }, yes: { b: false }, mode: { m: 'slow' } };

describe('param-type-supported agrees with the build', () => {
  let flagged: number[];
  beforeAll(async () => {
    flagged = await flaggedLines();
  }, 120_000);

  it('flags every parameter the build refuses', async () => {
    const error = await createApp({ name: 'refused', version: '1.0.0', tools: [Refused] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BuildError);
    const where = (error as BuildError).problems.map((p) => p.where.split(/[ .]/)[1]);
    expect([...new Set(where)].sort()).toEqual(toolNames(Refused).sort());
    expect(flagged.filter((line) => paramLines(Refused).includes(line))).toEqual(paramLines(Refused));
  });

  it('flags every parameter whose schema admits values its type forbids (enums, single literals)', async () => {
    const refused = await refusedCalls(Loose, { ...forbidden, pick: { u: 'c' }, small: { n: 3 } });
    expect(refused).toEqual({ color: false, level: false, only: false, yes: false, mode: false, pick: false, small: false });
    expect(flagged.filter((line) => paramLines(Loose).includes(line))).toEqual(paramLines(Loose));
  });

  it('leaves alone the parameters the build reads exactly, including the fixes the rule gives', async () => {
    expect(await refusedCalls(Fine, forbidden)).toEqual({ color: true, level: true, only: true, yes: true, mode: true });
    expect(flagged.filter((line) => paramLines(Fine).includes(line))).toEqual([]);
  });
});
