/**
 * What a package's npm page shows: every published package has a README (what it is, how to
 * install it, a short example, a link to its docs page), a LICENSE and a CHANGELOG, all three
 * in its `files`; the README's TypeScript example compiles against the packages' sources with
 * the repository's compiler options (decorators with metadata, Node 16 modules), and every
 * link into the repository names a file that exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ts from 'typescript';
import { REPO } from './helpers/markdown';
import { GITHUB, PUBLISHED } from './helpers/published';

/** Lines of code an example may take, blank lines aside: "a ten-line example", with a little room for imports. */
const EXAMPLE_LINES = 12;

const readme = (dir: string) => readFileSync(join(dir, 'README.md'), 'utf8');
/** The text under a `## heading`, up to the next heading of level 1 or 2. */
const section = (text: string, heading: string) => text.split(/\n(?=#{1,2} )/).find((s) => s.startsWith(`## ${heading}\n`));
const tsBlocks = (text: string) => [...text.matchAll(/^```ts\n([\s\S]*?)^```/gm)].map((m) => m[1]);

/** Type-checks each snippet as an ES module file beside its package (top-level await allowed); returns the errors per file. */
function compile(snippets: ReadonlyMap<string, string>): Map<string, string> {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(REPO, 'tsconfig.json'),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  const options: ts.CompilerOptions = { ...config.options, noEmit: true };
  expect(options).toMatchObject({ experimentalDecorators: true, emitDecoratorMetadata: true, strict: true });
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (file) => snippets.has(file) || fileExists.call(host, file);
  host.readFile = (file) => snippets.get(file) ?? readFile.call(host, file);
  host.getSourceFile = (file, language, ...rest) => {
    const text = snippets.get(file);
    return text === undefined ? getSourceFile.call(host, file, language, ...rest) : ts.createSourceFile(file, text, language, true);
  };
  const program = ts.createProgram([...snippets.keys()], options, host);
  const format = { getCanonicalFileName: (f: string) => f, getCurrentDirectory: () => REPO, getNewLine: () => '\n' };
  return new Map(
    [...snippets.keys()].map((file) => {
      const errors = ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).filter((d) => d.category === ts.DiagnosticCategory.Error);
      return [file, ts.formatDiagnostics(errors, format)];
    }),
  );
}

describe('package READMEs, licenses and changelogs', () => {
  const rootLicense = readFileSync(join(REPO, 'LICENSE'), 'utf8');

  it('the root LICENSE is MIT, the Toolwright authors, 2026', () => {
    expect(rootLicense.split('\n').slice(0, 3)).toEqual(['MIT License', '', 'Copyright (c) 2026 the Toolwright authors']);
    expect(JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).license).toBe('MIT');
  });

  describe.each(PUBLISHED.map((p) => [p.manifest.name, p] as const))('%s', (name, { dir, folder, manifest }) => {
    it('ships its README, LICENSE and CHANGELOG: they exist and `files` lists them', () => {
      for (const file of ['README.md', 'LICENSE', 'CHANGELOG.md']) expect({ file, exists: existsSync(join(dir, file)) }).toEqual({ file, exists: true });
      expect(manifest.files).toEqual(expect.arrayContaining(['README.md', 'LICENSE', 'CHANGELOG.md']));
      expect(manifest).toMatchObject({ license: 'MIT' });
      expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toBe(rootLicense);
    });

    it("its CHANGELOG is one lerna version can extend: lerna's header line, then an entry for this version", () => {
      const changelog = readFileSync(join(dir, 'CHANGELOG.md'), 'utf8');
      // lerna keeps what follows this line and writes its header and the new entry above it.
      expect(changelog).toContain('See [Conventional Commits](https://conventionalcommits.org) for commit guidelines.\n\n');
      expect(changelog).toMatch(new RegExp(`^#{2,3} \\[?${manifest.version.replace(/\./g, '\\.')}\\]?`, 'm'));
    });

    it('its README says what it is, how to install it, shows an example and links its docs page', () => {
      const text = readme(dir);
      expect(text.startsWith(`# ${name}\n\n`)).toBe(true);
      expect(text.split('\n\n')[1].length).toBeGreaterThan(80);
      expect(section(text, 'Install')).toBeDefined();
      if (name !== 'create-toolwright') expect(section(text, 'Install')).toMatch(new RegExp(`^(npm install|npx) .*${name}`, 'm'));
      else expect(section(text, 'Install')).toContain('npm create toolwright@latest');
      const example = section(text, 'Example');
      expect(example).toBeDefined();
      const [code, ...more] = tsBlocks(example!);
      expect(more).toEqual([]);
      expect(code.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(EXAMPLE_LINES);
      expect(section(text, 'Learn more')).toMatch(new RegExp(`${GITHUB}/blob/main/docs/guide/[\\w-]+\\.md`));
    });

    it('every link of its README into the repository names a file or folder that exists', () => {
      const links = [...readme(dir).matchAll(new RegExp(`${GITHUB}/(?:blob|tree)/main/([^)#\\s]+)`, 'g'))].map((m) => m[1]);
      expect(links.length).toBeGreaterThan(0);
      expect(links.filter((path) => !existsSync(join(REPO, path)))).toEqual([]);
      expect(manifest.repository).toEqual({ type: 'git', url: `git+${GITHUB}.git`, directory: `packages/${folder}` });
    });
  });

  it("the README examples compile (tsc, the repository's tsconfig: decorators with metadata, @toolwright/* from source); a broken one would not", () => {
    const snippets = new Map(PUBLISHED.map(({ dir }) => [join(dir, 'README.example.mts'), tsBlocks(section(readme(dir), 'Example') ?? '')[0] ?? '']));
    // The control: a wrong option type, which must be reported against its own file.
    const broken = join(REPO, 'packages', 'core', 'README.broken.mts');
    snippets.set(broken, "import { Tool } from '@toolwright/core';\nexport const decorator = Tool({ description: 1 });\n");
    const errors = compile(snippets);
    expect(errors.get(broken)).toMatch(/README\.broken\.mts.*error TS2322/);
    errors.delete(broken);
    expect(Object.fromEntries([...errors].map(([file, text]) => [file.slice(REPO.length + 1), text]))).toEqual(
      Object.fromEntries(PUBLISHED.map(({ folder }) => [`packages/${folder}/README.example.mts`, ''])),
    );
  }, 120_000);
});
