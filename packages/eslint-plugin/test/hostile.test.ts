import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { configs } from '../src/index';

const root = join(__dirname, 'fixtures', 'hostile');

/**
 * Lints one fixture file with the recommended config, as a user's `eslint.config.mjs` sets it up
 * beside typescript-eslint's (its plugin only, without its rules: a fixture's directive that
 * disables one of them resolves, and is not reported as unused).
 */
async function lint(file: string, fix = false, folder = 'src'): Promise<ESLint.LintResult> {
  const overrideConfig = [{ plugins: { '@typescript-eslint': tseslint.plugin }, linterOptions: { reportUnusedDisableDirectives: 'off' } }, configs.recommended] as Linter.Config[];
  const eslint = new ESLint({ cwd: join(root, folder), overrideConfigFile: true, overrideConfig, fix });
  const path = join(root, folder, file);
  const [result] = await eslint.lintText(readFileSync(path, 'utf8'), { filePath: path });
  return result;
}

const found = (result: ESLint.LintResult) => result.messages.map((m) => `${m.line} ${m.ruleId}${m.fatal ? ' fatal' : ''}`);

// Code the rules must read without throwing or guessing: a rule that throws stops the whole
// lint run, and a finding on correct code fails a generated project's `npm test`.
describe('the recommended config on code written in unusual ways', () => {
  it('goes on past a @Param that is not called yet (mid-edit)', async () => {
    expect(found(await lint('unfinished.tools.ts'))).toEqual([]);
  }, 120_000);

  it('leaves options it cannot read alone, reads asserted ones, and fixes `optional: false` to true', async () => {
    const result = await lint('options.tools.ts');
    expect(found(result)).toEqual(['30 @toolwright/param-optional-matches']);
    const fixed = (await lint('options.tools.ts', true)).output ?? '';
    // The value is turned around: a second `optional` key would not compile (TS1117).
    expect(fixed).toContain("contradicted(@Param('w', { optional: true, description: 'A word' }) w?: string)");
  }, 120_000);

  it('sees decorators imported through a barrel of the project (type information)', async () => {
    expect(found(await lint('barrel.tools.ts'))).toEqual(['6 @toolwright/dto-property-decorated', '11 @toolwright/param-optional-matches']);
  }, 120_000);

  it('follows a barrel imported as a namespace, and a namespace of Toolwright a barrel re-exports', async () => {
    expect(found(await lint('namespace.tools.ts'))).toEqual(['8 @toolwright/param-optional-matches', '14 @toolwright/param-optional-matches']);
  }, 120_000);

  it('ends on barrel cycles, and follows an `export *` cycle that re-exports Toolwright', async () => {
    expect(found(await lint('cycle.tools.ts'))).toEqual(['8 @toolwright/param-optional-matches']);
  }, 120_000);

  it("does not flag a subclass's `declare` field that narrows an inherited property, and flags one no base class has", async () => {
    expect(found(await lint('narrowed.dto.ts'))).toEqual(['16 @toolwright/dto-property-decorated', '21 @toolwright/dto-property-decorated']);
  }, 120_000);

  it('does not flag a field of a subclass that only changes the default value of an inherited property (`override limit? = 100`)', async () => {
    expect(found(await lint('override.dto.ts'))).toEqual(['12 @toolwright/dto-property-decorated']);
  }, 120_000);

  it('reads DTO bases through a generic class and a mixin, and leaves alone bases it cannot read (a .d.ts, `any`)', async () => {
    expect(found(await lint('inherited.dto.ts'))).toEqual(['16 @toolwright/dto-property-decorated', '27 @toolwright/dto-property-decorated']);
  }, 120_000);

  it('flags DTO properties whose `?` the schema does not see, with decorators through a barrel, and fixes them with the name the file imports', async () => {
    expect(found(await lint('optional.dto.ts'))).toEqual([
      '7 @toolwright/property-optional-matches',
      '8 @toolwright/property-optional-matches',
      '9 @toolwright/property-optional-matches',
      '10 @toolwright/property-optional-matches',
      '16 @toolwright/property-optional-matches',
    ]);
    const fixed = (await lint('optional.dto.ts', true)).output ?? '';
    expect(fixed).toContain('@Maybe() @IsInt() page?: number;');
    expect(fixed).toContain('@Maybe() @cv.IsInt() offset?: number;');
    expect(fixed).toContain('@Maybe() @barrel.IsInt() limit?: number;');
    expect(fixed).toContain('@Maybe() @cv.Max(50) override limit?: number = 20;');
    expect(fixed).toContain('@Text() @Maybe() query!: string;');
  }, 120_000);

  it("suggests, for a parameter without an annotation, its default value's type", async () => {
    const messages = (await lint('unannotated.tools.ts')).messages.map((m) => m.message);
    expect(messages).toHaveLength(3);
    expect(messages[0]).toContain("annotate it (`n: number`), or state it: @Param('n', { type: () => Number })");
    // An empty array is `never[]` to TypeScript: the element type is asked for.
    expect(messages[1]).toContain("annotate it (`tags: <element type>[]`), or state it: @Param('tags', { type: () => [<element type>] })");
    expect(messages[2]).toContain("annotate it (`on: boolean`), or state it: @Param('on', { type: () => Boolean })");
  }, 120_000);
});

// consumer/ is compiled by a tsconfig without the decorator settings, and reaches Toolwright
// only through src/toolwright.ts, a barrel compiled by another tsconfig that has them.
describe('decorator-settings on a file that uses Toolwright through a barrel', () => {
  it('flags the import of the barrel', async () => {
    expect(found(await lint('named.tools.ts', false, 'consumer'))).toEqual(['3 @toolwright/decorator-settings']);
  }, 120_000);

  it('leaves alone a file that applies no decorator, though it imports a type and ToolError through the barrel', async () => {
    expect(found(await lint('script.ts', false, 'consumer'))).toEqual([]);
  }, 120_000);

  it('flags the first Toolwright decorator reached through a namespace of the barrel', async () => {
    expect(found(await lint('namespace.tools.ts', false, 'consumer'))).toEqual(['5 @toolwright/decorator-settings']);
  }, 120_000);
});
