import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A compile error stops the Worker's build loudly, and writes nothing: emitEsModules (tsc again, as
 * ES modules) emitted despite errors, so the Worker was bundled from broken JavaScript, and from an
 * older build's files beside it. Both copies of the bundler: this example's scripts/bundleWorker.mjs,
 * and the one `toolwright new --template edge` writes (scripts/bundle-worker.mjs, run whole).
 */
const ROOT = join(__dirname, '..');
const TEMPLATE_BUNDLER = join(ROOT, '..', '..', 'packages', 'cli', 'templates', 'edge', 'scripts', 'bundle-worker.mjs.tpl');

let dir: string;
// Inside the example, so the files written here resolve its packages (typescript, esbuild).
beforeEach(() => {
  dir = mkdtempSync(join(ROOT, '.bundle-test-'));
  mkdirSync(join(dir, 'src'));
  mkdirSync(join(dir, 'scripts'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'emit-errors', private: true, type: 'commonjs' }));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: { target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'node16', moduleResolution: 'node16', rootDir: 'src', outDir: 'dist', strict: true, types: [] },
      include: ['src'],
    }),
  );
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const GOOD = "export const greeting: string = 'hello';\nexport default { fetch: () => new Response(greeting) };\n";
/** A type error on line 1, and a syntax error on line 2. */
const BROKEN = 'export const greeting: string = 42;\nexport default { fetch: () => new Response(greeting) ;\n';

function emit(outDir: string) {
  const source = `import { emitEsModules } from ${JSON.stringify(`file://${join(ROOT, 'scripts', 'bundleWorker.mjs')}`)};\nemitEsModules(${JSON.stringify(join(dir, 'tsconfig.json'))}, ${JSON.stringify(outDir)});`;
  return spawnSync(process.execPath, ['--input-type=module', '-e', source], { cwd: dir, encoding: 'utf8' });
}

it('emitEsModules: names every compile error with its file and line, and leaves the last good output as it was', () => {
  const outDir = join(dir, 'dist-worker', 'esm');
  writeFileSync(join(dir, 'src', 'worker.ts'), GOOD);
  expect(emit(outDir)).toMatchObject({ status: 0, stderr: '' });
  const good = readFileSync(join(outDir, 'worker.js'), 'utf8');

  writeFileSync(join(dir, 'src', 'worker.ts'), BROKEN);
  const failed = emit(outDir);
  expect(failed.status).not.toBe(0);
  expect(failed.stderr).toMatch(/emitEsModules: tsc found \d+ error\(s\) in the project of .*, so nothing was compiled or bundled/);
  expect(failed.stderr).toMatch(/src\/worker\.ts\(1,\d+\): error TS2322/);
  expect(failed.stderr).toMatch(/src\/worker\.ts\(2,\d+\): error TS1005/);
  expect(readFileSync(join(outDir, 'worker.js'), 'utf8')).toBe(good);
});

it("the template's scripts/bundle-worker.mjs: fails on a compile error and bundles nothing", () => {
  copyFileSync(TEMPLATE_BUNDLER, join(dir, 'scripts', 'bundle-worker.mjs'));
  writeFileSync(join(dir, 'src', 'worker.ts'), BROKEN);
  const failed = spawnSync(process.execPath, [join(dir, 'scripts', 'bundle-worker.mjs')], { cwd: dir, encoding: 'utf8' });
  expect(failed.status).not.toBe(0);
  expect(failed.stderr).toMatch(/emitEsModules: tsc found \d+ error\(s\) in the project of .*, so nothing was compiled or bundled/);
  expect(failed.stderr).toMatch(/src\/worker\.ts\(1,\d+\): error TS2322/);
  expect({ esm: existsSync(join(dir, 'dist-worker', 'esm', 'worker.js')), worker: existsSync(join(dir, 'dist-worker', 'worker.mjs')) }).toEqual({ esm: false, worker: false });
});
