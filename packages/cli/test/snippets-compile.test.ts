/**
 * Issue 30 #7: the README's showcase did not compile in a generated project (top-level
 * `await` in CommonJS, an undefined service). Every TypeScript block written inline in the
 * README and the docs pages (the included ones are files, type-checked with the docs) must
 * compile as a file of a project `toolwright new` writes: its tsconfig (CommonJS, Node 16
 * modules, strict, decorators with metadata), in its src/ folder. A block that is only part
 * of a program says so with an `<!-- fragment -->` line before it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { docPages } from '../../../docs/test/codeBlocks';
import { tsconfig } from '../src/generate/projectFiles';

const REPO = join(__dirname, '..', '..', '..');
const DOCS = join(REPO, 'docs');

/** The TypeScript blocks written inline in a Markdown file (not `<<<` includes), each marked whether a `<!-- fragment -->` line precedes it. */
function inlineBlocks(file: string, label: string): { where: string; code: string; fragment: boolean }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: { where: string; code: string; fragment: boolean }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,})(ts|typescript)\b/.exec(lines[i]);
    if (!fence) continue;
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !lines[i].trim().startsWith(fence[2]); i++) body.push(lines[i]);
    let j = start - 1;
    while (j >= 0 && lines[j].trim() === '') j--;
    blocks.push({ where: `${label}:${start + 1}`, code: body.join('\n'), fragment: lines[j]?.trim() === '<!-- fragment -->' });
  }
  return blocks;
}

/** The compiler options of a generated project, @toolwright/* resolved to the sources (the published types are built from them). */
function generatedProjectOptions(): ts.CompilerOptions {
  const json = JSON.parse(tsconfig({ template: 'minimal', transport: 'stdio', packageName: 'snippets', toolwrightVersion: '0.0.0' }));
  const { options, errors } = ts.convertCompilerOptionsFromJson(json.compilerOptions, REPO);
  expect(errors).toEqual([]);
  expect(options).toMatchObject({ module: ts.ModuleKind.Node16, experimentalDecorators: true, emitDecoratorMetadata: true, strict: true });
  const source = (pkg: string, entry = 'index.ts') => [join(REPO, 'packages', pkg, 'src', entry)];
  return {
    ...options,
    noEmit: true,
    rootDir: undefined,
    baseUrl: REPO,
    paths: {
      '@toolwright/core': source('core'),
      '@toolwright/core/*': [join(REPO, 'packages/core/src/*/index.ts')],
      '@toolwright/server': source('server'),
      '@toolwright/server/*': [join(REPO, 'packages/server/src/*/index.ts')],
      '@toolwright/eslint-plugin': source('eslint-plugin'),
    },
  };
}

describe('every inline TypeScript block of the README and the docs compiles in a generated project', () => {
  const blocks = [inlineBlocks(join(REPO, 'README.md'), 'README.md'), ...docPages(DOCS).map((page) => inlineBlocks(join(DOCS, page), `docs/${page}`))].flat();
  const whole = blocks.filter((b) => !b.fragment);

  it('finds the README showcase among them', () => {
    expect(whole.map((b) => b.where)).toContainEqual(expect.stringMatching(/^README\.md:\d+$/));
  });

  it('compiles each one as a file of src/ (CommonJS: no top-level await; every name defined or imported)', () => {
    // examples/minimal is what `toolwright new` writes: its package.json makes src/ CommonJS, and its node_modules resolve.
    const dir = join(REPO, 'examples', 'minimal', 'src');
    const files = new Map(whole.map((b, i) => [join(dir, `snippet${i}.ts`), b]));
    const options = generatedProjectOptions();
    const host = ts.createCompilerHost(options);
    const { fileExists, readFile, getSourceFile } = host;
    host.fileExists = (file) => files.has(file) || fileExists.call(host, file);
    host.readFile = (file) => files.get(file)?.code ?? readFile.call(host, file);
    host.getSourceFile = (file, language, ...rest) => {
      const block = files.get(file);
      return block ? ts.createSourceFile(file, block.code, language, true) : getSourceFile.call(host, file, language, ...rest);
    };
    const program = ts.createProgram([...files.keys()], options, host);
    const problems = [...files].flatMap(([file, block]) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(file))
        .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file?.fileName === file)
        .map((d) => `${block.where} (line ${d.file!.getLineAndCharacterOfPosition(d.start ?? 0).line + 1} of the block): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`),
    );
    expect(problems).toEqual([]);
  }, 120_000);

  // Issue 30 #10: on a code host the includes show no code; each guide page shows some before anything else.
  it('each guide page opens with a short inline example, before its first section', () => {
    // Not the generated tables, nor the internals page for maintainers (it opens with the path of a request).
    const pages = docPages(DOCS).filter((page) => page.startsWith('guide/') && !page.startsWith('guide/generated/') && !['guide/architecture.md', 'guide/internals.md'].includes(page));
    const late = pages.filter((page) => {
      const lines = readFileSync(join(DOCS, page), 'utf8').split('\n');
      const first = lines.findIndex((line, i) => i > 0 && (/^```/.test(line) || line.startsWith('<<<') || line.startsWith('## ')));
      return !(first > 0 && first <= 12 && lines[first].startsWith('```'));
    });
    expect(pages.length).toBeGreaterThan(20);
    expect(late).toEqual([]);
  });
});
