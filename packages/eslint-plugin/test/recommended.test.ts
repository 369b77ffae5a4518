import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import { configs } from '../src/index';

/** Lints the TypeScript files under the given folders (jest cannot run ESLint's own glob, which imports dynamically). */
async function lint(cwd: string, folders: readonly string[]): Promise<ESLint.LintResult[]> {
  const eslint = new ESLint({ cwd, overrideConfigFile: true, overrideConfig: [configs.recommended] });
  const files = folders.flatMap((folder) =>
    (readdirSync(join(cwd, folder), { recursive: true }) as string[])
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts') && !f.split('/').includes('node_modules') && !f.split('/').includes('dist'))
      .map((f) => join(cwd, folder, f)),
  );
  const results: ESLint.LintResult[] = [];
  for (const file of files) results.push(...(await eslint.lintText(readFileSync(file, 'utf8'), { filePath: file })));
  return results;
}

// That the examples (each what a template generates) and the docs snippets pass the recommended config
// is `npm run lint`'s job: eslint.config.mjs applies it to them, and `npm test` fails on any finding.
describe('the recommended config', () => {
  it('flags the five mistake kinds of issue 30 in a sample project', async () => {
    const results = await lint(join(__dirname, 'fixtures', 'sample-project'), ['src']);
    const messages = results.flatMap((r) => r.messages.map((m) => `${m.line} ${m.ruleId}`));
    expect(results.flatMap((r) => r.messages.filter((m) => m.fatal))).toEqual([]);
    expect(messages).toEqual([
      '5 @toolwright/decorator-settings',
      '17 @toolwright/dto-property-decorated',
      '21 @toolwright/injectable-class-decorated',
      '31 @toolwright/param-optional-matches',
      '37 @toolwright/param-type-supported',
    ]);
  }, 120_000);
});
