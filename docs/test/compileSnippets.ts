import { rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';

const DOCS = join(__dirname, '..');

/**
 * The JavaScript of each file: an example's source is built by `npm run build` into its
 * `dist/`; snippet files are compiled here. Run `npm run build` first.
 */
export function compiledFiles(files: readonly string[]): Map<string, string> {
  const example = (file: string) => /\/examples\/[^/]+\/src\//.test(file);
  const snippets = compileSnippets(files.filter((f) => !example(f)));
  for (const file of files.filter(example)) snippets.set(file, file.replace(/\/src\/(.*)\.ts$/, '/dist/$1.js'));
  return snippets;
}

/**
 * Compiles snippet files (and what they import) to JavaScript with tsc, as a user's build
 * would, and returns each file's compiled path. `@toolwright/*` resolve to the built
 * packages, as in a user's project: run `npm run build` first.
 */
export function compileSnippets(files: readonly string[]): Map<string, string> {
  const configPath = join(DOCS, 'tsconfig.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configPath,
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    },
  )!;
  // Inside the repo's node_modules, so that the compiled files find the packages as a project's would.
  const outDir = join(DOCS, '..', 'node_modules', '.cache', 'toolwright-docs-snippets');
  rmSync(outDir, { recursive: true, force: true });
  const options: ts.CompilerOptions = { ...config.options, noEmit: false, outDir, rootDir: DOCS, paths: undefined, baseUrl: undefined, sourceMap: false, declaration: false, types: ['node'] };
  const program = ts.createProgram(files, options);
  const result = program.emit();
  const errors = [...ts.getPreEmitDiagnostics(program), ...result.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) throw new Error(ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => DOCS, getNewLine: () => '\n' }));
  return new Map(files.map((file) => [file, join(outDir, relative(DOCS, file)).replace(/\.ts$/, '.js')]));
}
