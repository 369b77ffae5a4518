// The recommended config, run by the real ESLint as docs/guide/eslint.md sets it up, on correct
// code: the repo's examples and doc snippets, and every template `toolwright new` writes (in a
// temporary project whose node_modules are the repo's). Any finding here is a false positive
// every user of that code would see.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { ESLint } from 'eslint';
import { generateProject } from '../../cli/src/generate/generateProject';
import { TEMPLATE_NAMES, TEMPLATES } from '../../cli/src/generate/templates';
import { configs } from '../src/index';

const REPO = join(__dirname, '..', '..', '..');

/** The .ts files under `folders` of `base` (ESLint's own globbing needs a dynamic import, which jest's process lacks). */
const tsFiles = (base: string, folders: string[]) =>
  folders.flatMap((folder) =>
    (readdirSync(join(base, folder), { recursive: true }) as string[]).filter((f) => /\.[mc]?ts$/.test(f) && !/(^|\/)(node_modules|dist|coverage)\//.test(f)).map((f) => join(base, folder, f)),
  );

/** Every message of `results`, as `file:line rule message`. */
const findings = (results: ESLint.LintResult[], base: string) =>
  results.flatMap((r) => r.messages.map((m) => `${relative(base, r.filePath)}:${m.line} ${m.ruleId ?? 'fatal'} ${m.message.slice(0, 80)}`));

it('finds nothing in examples/*/src, examples/*/test and docs/snippets', async () => {
  // As the repo's own eslint.config.mjs lints them: the snippets of build errors and of other compilers are left out.
  const eslint = new ESLint({
    cwd: REPO,
    overrideConfigFile: true,
    overrideConfig: [
      { ignores: ['**/node_modules/', '**/dist/', 'docs/snippets/errors/buildErrorCases.ts', 'docs/snippets/compilers/**'] },
      { linterOptions: { reportUnusedDisableDirectives: 'off' } },
      { ...configs.recommended, files: ['examples/*/src/**/*.ts', 'examples/*/test/**/*.ts', 'docs/snippets/**/*.ts'] },
    ],
  });
  const examples = readdirSync(join(REPO, 'examples'))
    .flatMap((e) => ['src', 'test'].map((f) => `examples/${e}/${f}`))
    .filter((f) => existsSync(join(REPO, f)));
  const files = tsFiles(REPO, [...examples, 'docs/snippets']).filter((f) => !f.includes('docs/snippets/compilers/') && !f.endsWith('buildErrorCases.ts'));
  const results = await eslint.lintFiles(files);
  expect(results.length).toBeGreaterThan(100);
  expect(findings(results, REPO)).toEqual([]);
}, 300_000);

describe('every template toolwright new writes', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'toolwright-eslint-templates-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each(TEMPLATE_NAMES)(
    '%s: no finding',
    async (template) => {
      const project = join(dir, template);
      const files = generateProject({ template, transport: TEMPLATES[template].transport, packageName: `corpus-${template}`, toolwrightVersion: '0.1.0' });
      for (const file of files) {
        mkdirSync(dirname(join(project, file.path)), { recursive: true });
        writeFileSync(join(project, file.path), file.content);
      }
      mkdirSync(join(project, 'node_modules'));
      for (const name of readdirSync(join(REPO, 'node_modules'))) symlinkSync(join(REPO, 'node_modules', name), join(project, 'node_modules', name));
      // The generated eslint.config.mjs is `[{ ignores: ['dist/', 'coverage/'] }, toolwright.configs.recommended]`.
      const eslint = new ESLint({ cwd: project, overrideConfigFile: true, overrideConfig: [{ ignores: ['dist/', 'coverage/', 'node_modules/'] }, configs.recommended] });
      const results = await eslint.lintFiles(tsFiles(project, ['.']));
      expect(results.filter((r) => r.filePath.endsWith('.ts')).length).toBeGreaterThan(3);
      expect(findings(results, project)).toEqual([]);
    },
    300_000,
  );
});
