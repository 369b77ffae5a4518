#!/usr/bin/env node
'use strict';
// The repository pins TypeScript ~5.9; app teams may run another release. This checks that a
// Toolwright app builds, derives the same schemas and runs its tests with another TypeScript:
//
//   node scripts/test-typescript.js            TypeScript 6 (npm's newest 6.x)
//   node scripts/test-typescript.js 6.0.3      that version (any npm version or range)
//
// It npm-installs that TypeScript, with the ts-jest the generated projects pin, into a temporary
// folder, then:
//   1. compiles examples/weather and examples/full with the repository's TypeScript and with the
//      other one (each with the example's own tsconfig), checks that every file holds the same
//      `__metadata("design:…")` calls, starts each compiled server over stdio and compares what the
//      SDK client lists (tools with their input and output schemas, prompts, resources, templates);
//   2. compiles examples/weather's sources with the tsconfig the CLI writes for a new project and with
//      the one the docs recommend (docs/snippets/compilers/tsconfig.json): no diagnostics, and
//      `dist/server.js` where `npm start` looks for it;
//   3. runs examples/weather's jest tests through that ts-jest, which then loads the other TypeScript,
//      and fails on any ts-jest warning (the tests' stdio part starts the repository's build of the
//      example, examples/weather/dist, whose output step 1 compares).
// The repository must be built first (`npm run build`): the examples compile against the packages'
// declarations and run on their `dist/`. Needs the npm registry (or its cache).

const { execFileSync, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { isDeepStrictEqual } = require('node:util');

const ROOT = path.resolve(__dirname, '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const EXAMPLES = ['weather', 'full'];
/** The example whose jest tests run on the other TypeScript, and whose sources the config checks compile. */
const TESTED_EXAMPLE = 'weather';

const wanted = process.argv[2] ?? '6';
const problems = [];
/** The version npm installed for `wanted`, once it has. */
let installed = wanted;

main()
  .catch((error) => problems.push(`stopped: ${error instanceof Error ? error.message : String(error)}`))
  .finally(() => {
    console.log('');
    if (problems.length === 0) {
      console.log(`test-typescript: pass: the examples build, list the same and test the same on TypeScript ${installed}.`);
      return;
    }
    for (const problem of problems) console.error(`test-typescript: FAIL ${problem}`);
    console.error('test-typescript: a Toolwright app behaves differently on this TypeScript; say so in docs/guide/compilers.md, or fix the cause.');
    process.exitCode = 1;
  });

async function main() {
  for (const built of ['packages/core/dist/index.js', 'packages/server/dist/index.js', 'packages/cli/dist/generate/projectFiles.js']) {
    if (!fs.existsSync(path.join(ROOT, built))) throw new Error(`${built} is missing: run \`npm run build\` first.`);
  }
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-typescript-')));
  try {
    const tsJestVersion = readJson(path.join(ROOT, 'examples', TESTED_EXAMPLE, 'package.json')).devDependencies['ts-jest'];
    const tools = path.join(dir, 'tools');
    fs.mkdirSync(tools);
    fs.writeFileSync(path.join(tools, 'package.json'), JSON.stringify({ name: 'toolwright-typescript-check', private: true }));
    // ts-jest's peers are the repository's jest: jest-util is linked below rather than installed twice.
    execFileSync(NPM, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--no-package-lock', '--legacy-peer-deps', '--loglevel=error', `typescript@${wanted}`, `ts-jest@${tsJestVersion}`], {
      cwd: tools,
      stdio: 'inherit',
    });
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'jest-util'), path.join(tools, 'node_modules', 'jest-util'), 'junction');
    const other = path.join(tools, 'node_modules', 'typescript');
    const repo = path.dirname(require.resolve('typescript/package.json', { paths: [ROOT] }));
    const otherVersion = readJson(path.join(other, 'package.json')).version;
    installed = otherVersion;
    const repoVersion = readJson(path.join(repo, 'package.json')).version;
    console.log(`test-typescript: TypeScript ${otherVersion} against the repository's ${repoVersion}, ts-jest ${tsJestVersion}`);

    for (const example of EXAMPLES) await compareExample(dir, example, { repo, other, repoVersion, otherVersion });
    checkConfigs(dir, other, otherVersion);
    runJest(dir, path.join(tools, 'node_modules', 'ts-jest'), otherVersion);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Step 1: both compilers' output for one example, its decorator metadata and what its server lists. */
async function compareExample(dir, example, { repo, other, repoVersion, otherVersion }) {
  const outputs = [];
  for (const [label, typescript] of [
    [repoVersion, repo],
    [otherVersion, other],
  ]) {
    const base = path.join(dir, `ts-${label}`);
    linkNodeModules(base);
    const outDir = path.join(base, 'examples', example, 'dist');
    const tsconfig = path.join(ROOT, 'examples', example, 'tsconfig.json');
    const ok = tsc(typescript, ['-p', tsconfig, '--outDir', outDir, '--tsBuildInfoFile', path.join(outDir, '.tsbuildinfo')], `examples/${example} with TypeScript ${label}`);
    if (!ok) return;
    outputs.push({ label, outDir });
  }
  const [before, after] = outputs;

  const files = jsFiles(before.outDir);
  const afterFiles = jsFiles(after.outDir);
  if (!isDeepStrictEqual(files, afterFiles)) problems.push(`examples/${example}: TypeScript ${after.label} emits ${afterFiles.join(', ')}; ${before.label} emits ${files.join(', ')}.`);
  let identical = 0;
  for (const file of files.filter((f) => afterFiles.includes(f))) {
    const a = fs.readFileSync(path.join(before.outDir, file), 'utf8');
    const b = fs.readFileSync(path.join(after.outDir, file), 'utf8');
    if (a === b) identical++;
    const ma = metadataCalls(a);
    const mb = metadataCalls(b);
    if (!isDeepStrictEqual(ma, mb)) {
      problems.push(`examples/${example}/src/${file.replace(/\.js$/, '.ts')}: the decorator metadata differs (before: TypeScript ${before.label}, after: ${after.label}):\n${firstDifference(ma, mb)}`);
    }
  }
  console.log(`test-typescript: examples/${example}: ${identical} of ${files.length} emitted files byte-identical; decorator metadata compared in all.`);

  const listed = [];
  for (const { label, outDir } of outputs) listed.push(await listServer(path.join(outDir, 'server.js'), `examples/${example} (TypeScript ${label})`));
  for (const kind of Object.keys(listed[0])) {
    if (!isDeepStrictEqual(listed[0][kind], listed[1][kind])) {
      problems.push(`examples/${example}: ${kind} differs between TypeScript ${before.label} and ${after.label}:\n${firstDifference(listed[0][kind], listed[1][kind])}`);
    }
  }
  const counts = Object.entries(listed[0]).map(([kind, items]) => `${items.length} ${kind}`);
  console.log(`test-typescript: examples/${example}: listed ${counts.join(', ')} on both.`);
}

/** Step 2: the tsconfig the CLI writes for a new project, and the docs' tsconfig, on the other TypeScript. */
function checkConfigs(dir, other, otherVersion) {
  const { tsconfig, testTsconfig } = require(path.join(ROOT, 'packages/cli/dist/generate/projectFiles.js'));
  const configs = [
    ['the CLI-generated tsconfig.json', JSON.parse(tsconfig({})), JSON.parse(testTsconfig({}))],
    ['docs/snippets/compilers/tsconfig.json', readJson(path.join(ROOT, 'docs/snippets/compilers/tsconfig.json')), undefined],
  ];
  configs.forEach(([name, config, testConfig], i) => {
    const project = path.join(dir, `config-${i}`);
    linkNodeModules(project);
    fs.cpSync(path.join(ROOT, 'examples', TESTED_EXAMPLE, 'src'), path.join(project, 'src'), { recursive: true });
    fs.writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify(config, null, 2));
    if (!tsc(other, ['-p', project], `examples/${TESTED_EXAMPLE}/src with ${name}, TypeScript ${otherVersion}`)) return;
    if (!fs.existsSync(path.join(project, 'dist', 'server.js'))) {
      problems.push(`${name}: TypeScript ${otherVersion} did not emit dist/server.js (set "rootDir": "src").`);
      return;
    }
    if (testConfig) {
      fs.cpSync(path.join(ROOT, 'examples', TESTED_EXAMPLE, 'test'), path.join(project, 'test'), { recursive: true });
      fs.writeFileSync(path.join(project, 'test', 'tsconfig.json'), JSON.stringify(testConfig, null, 2));
      if (!tsc(other, ['-p', path.join(project, 'test')], `examples/${TESTED_EXAMPLE}/test with the CLI-generated test/tsconfig.json, TypeScript ${otherVersion}`)) return;
    }
    console.log(`test-typescript: ${name} compiles on TypeScript ${otherVersion}.`);
  });
}

/** Step 3: the example's jest config with ts-jest from the temporary folder, so that it loads the other TypeScript. */
function runJest(dir, tsJest, otherVersion) {
  const seen = readJson(require.resolve('typescript/package.json', { paths: [tsJest] })).version;
  if (seen !== otherVersion) {
    problems.push(`ts-jest in ${tsJest} resolves TypeScript ${seen}, not ${otherVersion}: the jest run would not test it.`);
    return;
  }
  const exampleDir = path.join(ROOT, 'examples', TESTED_EXAMPLE);
  const config = path.join(dir, 'jest.config.js');
  fs.writeFileSync(
    config,
    [
      `const base = require(${JSON.stringify(path.join(exampleDir, 'jest.config.js'))});`,
      'const transform = Object.fromEntries(',
      '  Object.entries(base.transform).map(([pattern, [name, options]]) => [pattern, [name === "ts-jest" ? ' + JSON.stringify(tsJest) + ' : name, options]]),',
      ');',
      `module.exports = { ...base, rootDir: ${JSON.stringify(exampleDir)}, transform };`,
    ].join('\n'),
  );
  console.log(`\ntest-typescript: examples/${TESTED_EXAMPLE}'s jest tests through ts-jest on TypeScript ${otherVersion}`);
  const run = spawnSync(process.execPath, [require.resolve('jest/bin/jest', { paths: [ROOT] }), '--config', config, '--ci', '--no-cache', '--runInBand'], {
    cwd: exampleDir,
    encoding: 'utf8',
  });
  process.stdout.write(run.stdout);
  process.stderr.write(run.stderr);
  const warnings = `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => /ts-jest\[[^\]]*\] \((WARN|ERROR)\)/.test(line));
  if (warnings.length > 0) problems.push(`ts-jest warns on TypeScript ${otherVersion}:\n  ${warnings.join('\n  ')}`);
  if (run.status !== 0) problems.push(`examples/${TESTED_EXAMPLE}'s jest tests fail through ts-jest on TypeScript ${otherVersion} (output above).`);
}

/** Runs a TypeScript's tsc; records its diagnostics as a problem and returns false when it reports any. */
function tsc(typescript, args, what) {
  const run = spawnSync(process.execPath, [path.join(typescript, 'bin', 'tsc'), ...args], { cwd: ROOT, encoding: 'utf8' });
  if (run.status === 0) return true;
  problems.push(`tsc reports problems compiling ${what}:\n${(run.stdout + run.stderr).trim()}`);
  return false;
}

/** Connects the SDK client to a compiled server over stdio and lists everything the server offers. */
async function listServer(serverJs, what) {
  const { Client } = require(require.resolve('@modelcontextprotocol/client', { paths: [ROOT] }));
  const { StdioClientTransport } = require(require.resolve('@modelcontextprotocol/client/stdio', { paths: [ROOT] }));
  const client = new Client({ name: 'test-typescript', version: '0.0.0' });
  const stderr = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: [serverJs], stderr: 'pipe' });
  transport.stderr?.on('data', (chunk) => stderr.push(chunk));
  try {
    await client.connect(transport);
  } catch (error) {
    throw new Error(`${what} did not start over stdio: ${error instanceof Error ? error.message : error}\n${Buffer.concat(stderr).toString()}`, { cause: error });
  }
  try {
    const capabilities = client.getServerCapabilities() ?? {};
    const all = async (list, key) => {
      const items = [];
      let cursor;
      do {
        const page = await list(cursor === undefined ? {} : { cursor });
        items.push(...page[key]);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      return items;
    };
    const listed = { tools: await all((p) => client.listTools(p), 'tools') };
    listed.prompts = capabilities.prompts ? await all((p) => client.listPrompts(p), 'prompts') : [];
    listed.resources = capabilities.resources ? await all((p) => client.listResources(p), 'resources') : [];
    listed['resource templates'] = capabilities.resources ? await all((p) => client.listResourceTemplates(p), 'resourceTemplates') : [];
    return listed;
  } finally {
    await client.close();
  }
}

/**
 * The `__metadata("design:…", …)` calls of an emitted file, in order, without their layout (a
 * compiler may wrap a long parameter list): each call up to its closing parenthesis, with the
 * whitespace around brackets, parentheses and commas removed and any other run of it made one space.
 */
function metadataCalls(js) {
  const calls = [];
  for (let start = js.indexOf('__metadata("design:'); start !== -1; start = js.indexOf('__metadata("design:', start + 1)) {
    let depth = 0;
    let end = start + '__metadata'.length;
    do {
      if (js[end] === '(') depth++;
      else if (js[end] === ')') depth--;
      end++;
    } while (depth > 0 && end < js.length);
    calls.push(
      js
        .slice(start, end)
        .replace(/\s+/g, ' ')
        .replace(/\s*([[\](),])\s*/g, '$1'),
    );
  }
  return calls;
}

/** Where two listed arrays first differ, as two JSON lines. */
function firstDifference(a, b) {
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (!isDeepStrictEqual(a[i], b[i])) return `  [${i}] before: ${JSON.stringify(a[i])}\n  [${i}] after:  ${JSON.stringify(b[i])}`;
  }
  return '  (same items)';
}

/** The compiled JavaScript files under a folder, relative and sorted. */
function jsFiles(folder) {
  return fs
    .readdirSync(folder, { recursive: true })
    .filter((f) => f.endsWith('.js'))
    .sort();
}

/** Lets code compiled under `folder` resolve the repository's packages, as the examples do in the workspace. */
function linkNodeModules(folder) {
  fs.mkdirSync(folder, { recursive: true });
  const link = path.join(folder, 'node_modules');
  if (!fs.existsSync(link)) fs.symlinkSync(path.join(ROOT, 'node_modules'), link, 'junction');
}

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}
