import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { configs } from '../src/index';

const root = join(__dirname, 'fixtures', 'hostile');

/** Lints one fixture file with the recommended config, as a user's `eslint.config.mjs` sets it up. */
async function lint(file: string, fix = false): Promise<ESLint.LintResult> {
  const eslint = new ESLint({ cwd: root, overrideConfigFile: true, overrideConfig: [configs.recommended], fix });
  const path = join(root, 'src', file);
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

  it("does not flag a subclass's `declare` field, which narrows an inherited decorated property", async () => {
    expect(found(await lint('narrowed.dto.ts'))).toEqual(['16 @toolwright/dto-property-decorated']);
  }, 120_000);
});
