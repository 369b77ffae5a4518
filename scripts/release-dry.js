#!/usr/bin/env node
'use strict';
// `npm run release:dry`: everything a release does except the upload (see RELEASING.md).
//
//   1. build                      npm run build
//   2. test what npm would ship   jest: packages/cli/test/{packed-packages.e2e,package-readmes,releasing}.test.ts
//                                 (npm pack, install the tarballs outside the workspace, run them as CJS and ESM)
//   3. version                    lerna version, as configured in lerna.json (conventional commits, every
//                                 package), in a throwaway clone of HEAD without commit, tag or push; then
//                                 checks that every package and every reference between them moved to the
//                                 new version, the lockfile too, and prints the version and changelog entries
//   4. publish                    npm publish --dry-run of every package of the checkout
//
// It changes nothing in the checkout or its git state (the build outputs aside) and uploads nothing.
//
//   --no-build       skip 1 (`npm test` has just built)
//   --no-pack-test   skip 2 (`npm test` has just run these files with the rest of jest)

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { staleReferences } = require('./sync-versions.js');
const { cloneHead } = require('./cloneHead.js');

const ROOT = path.resolve(__dirname, '..');
const PACK_TESTS = ['packages/cli/test/packed-packages.e2e.test.ts', 'packages/cli/test/package-readmes.test.ts', 'packages/cli/test/releasing.test.ts'];
const LERNA = path.join(ROOT, 'node_modules', 'lerna', 'dist', 'cli.js');

const args = process.argv.slice(2);
const unknown = args.filter((a) => a !== '--no-build' && a !== '--no-pack-test');
if (unknown.length > 0) fail(`release:dry: unknown argument ${unknown.join(', ')}; use --no-build, --no-pack-test.`);

const started = Date.now();
const say = (message) => console.log(`release:dry: ${message}`);
/** Runs a command, its output on ours; a failure ends the dry run. */
const run = (command, argv, options = {}) => execFileSync(command, argv, { cwd: ROOT, stdio: 'inherit', ...options });
/** Runs a command and returns its stdout; its stderr is shown only when it fails. */
const capture = (command, argv, options = {}) => {
  try {
    return execFileSync(command, argv, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
  } catch (error) {
    fail(`release:dry: ${command} ${argv.join(' ')} failed (exit ${error.status}):\n${error.stdout ?? ''}${error.stderr ?? ''}`);
  }
};
/** npm as a user would run it: none of the npm_* settings of the `npm run` that started us. */
const cleanEnv = () => Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));

const packages = fs
  .readdirSync(path.join(ROOT, 'packages'))
  .map((folder) => ({ folder, dir: path.join(ROOT, 'packages', folder), manifest: JSON.parse(fs.readFileSync(path.join(ROOT, 'packages', folder, 'package.json'), 'utf8')) }))
  .filter((p) => !p.manifest.private);

if (!args.includes('--no-build')) {
  say('1/4 build');
  run('npm', ['run', 'build']);
} else say('1/4 build: skipped (--no-build)');

if (!args.includes('--no-pack-test')) {
  say('2/4 the packed packages, installed and run outside the workspace');
  run(process.execPath, [path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), ...PACK_TESTS]);
} else say('2/4 pack tests: skipped (--no-pack-test)');

const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'toolwright-release-dry-'));
try {
  version(path.join(scratch, 'clone'));
  publish(path.join(scratch, 'publish'));
} finally {
  fs.rmSync(scratch, { recursive: true, force: true });
}
say(`done in ${((Date.now() - started) / 1000).toFixed(1)} s: nothing was committed, tagged, pushed or uploaded.`);

/** Step 3: lerna version in a clone of HEAD (with its tags, which lerna reads to find the last release). */
function version(clone) {
  let cloned;
  try {
    cloned = cloneHead(ROOT, clone);
  } catch (error) {
    fail(`release:dry: cloning HEAD into ${clone} failed:\n${error.stderr ?? error.message}`);
  }
  const { branch, head } = cloned;
  say(`3/4 lerna version in a throwaway clone of HEAD at ${head}, on branch ${branch} (the last commit; uncommitted changes are not released)`);
  // The clone's git identity, in case the machine has none: lerna checks it before versioning.
  capture('git', ['config', 'user.name', 'release dry run'], { cwd: clone });
  capture('git', ['config', 'user.email', 'release-dry-run@localhost'], { cwd: clone });
  const before = JSON.parse(fs.readFileSync(path.join(clone, 'lerna.json'), 'utf8')).version;
  // lerna.json holds the rest of the configuration (conventional commits, every package, allowed branch).
  // Its root `version` lifecycle runs scripts/sync-versions.js; it then updates package-lock.json with npm.
  const out = capture(process.execPath, [LERNA, 'version', '--yes', '--no-git-tag-version', '--no-push', '--allow-branch', branch, '--loglevel', 'warn'], {
    cwd: clone,
    env: { ...cleanEnv(), npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true', npm_config_update_notifier: 'false', CI: 'true' },
  });
  const next = JSON.parse(fs.readFileSync(path.join(clone, 'lerna.json'), 'utf8')).version;
  const problems = [];
  if (next === before) problems.push(`lerna.json still says ${before}`);
  for (const ref of staleReferences(clone).stale) problems.push(`${path.relative(clone, ref.file)}: ${ref.field} ${ref.field === 'version' ? '' : `${ref.name} `}is ${ref.spec}, not ${next}`);
  const lock = JSON.parse(fs.readFileSync(path.join(clone, 'package-lock.json'), 'utf8'));
  for (const { folder } of packages) {
    const entry = lock.packages[`packages/${folder}`];
    if (entry?.version !== next) problems.push(`package-lock.json: packages/${folder} is at ${entry?.version}, not ${next}`);
  }
  const changed = capture('git', ['status', '--porcelain'], { cwd: clone })
    .split('\n')
    .filter(Boolean)
    .map((l) => l.slice(3));
  for (const file of ['CHANGELOG.md', ...packages.map((p) => `packages/${p.folder}/CHANGELOG.md`)]) {
    if (!changed.includes(file)) problems.push(`${file} has no new entry`);
  }
  const log = capture('git', ['log', '--oneline', '-1'], { cwd: clone }).trim();
  if (!log.includes(head)) problems.push(`lerna committed (${log}) although told not to`);
  if (capture('git', ['tag', '--points-at', 'HEAD'], { cwd: clone }).trim().includes(`v${next}`)) problems.push(`lerna tagged v${next} although told not to`);
  if (problems.length > 0) fail(`release:dry: lerna version ${before} -> ${next} left:\n${problems.map((p) => `  ${p}`).join('\n')}\n${out}`);

  const entry = fs.readFileSync(path.join(clone, 'CHANGELOG.md'), 'utf8').split(/\n(?=#{1,2} \[?\d)/)[1] ?? '';
  say(`    the next release is ${next} (from ${before}); it changes ${changed.length} files: ${changed.join(', ')}`);
  say(
    `    its CHANGELOG.md entry begins:\n${entry
      .split('\n')
      .slice(0, 12)
      .map((l) => `      ${l}`)
      .join('\n')}`,
  );
}

/** Step 4: npm publish --dry-run of each package, from outside the workspace (inside, npm would load all of it first). */
function publish(dir) {
  say('4/4 npm publish --dry-run of every package');
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'npmrc'), '');
  for (const { dir: pkg, manifest } of packages) {
    // Provenance needs the CI's identity token, which a dry run has not: the flag is tested as configuration (publishConfig) instead.
    const out = capture('npm', ['publish', pkg, '--dry-run', '--json', '--ignore-scripts', '--provenance=false'], {
      cwd: dir,
      env: { ...cleanEnv(), npm_config_userconfig: path.join(dir, 'npmrc'), npm_config_cache: path.join(dir, 'cache'), npm_config_update_notifier: 'false', npm_config_loglevel: 'error' },
    });
    const report = JSON.parse(out.slice(out.indexOf('{')));
    const result = report[manifest.name] ?? report;
    if (result.name !== manifest.name || result.version !== manifest.version)
      fail(`release:dry: npm publish --dry-run reported ${result.name}@${result.version}, not ${manifest.name}@${manifest.version}`);
    // TypeScript's build info names this machine's paths and helps no user: `files` excludes it (`!**/*.tsbuildinfo`).
    const buildInfo = (result.files ?? []).map((f) => f.path).filter((f) => /\.tsbuildinfo$/.test(f));
    if (buildInfo.length > 0)
      fail(`release:dry: ${manifest.name} would publish TypeScript build info (${buildInfo.join(', ')}). Add "!**/*.tsbuildinfo" to the "files" of packages/${path.basename(pkg)}/package.json.`);
    say(`    ${result.name}@${result.version}: ${result.entryCount} files, ${(result.size / 1024).toFixed(0)} kB packed (${result.filename})`);
  }
}

function fail(message) {
  console.error(message);
  process.exit(1);
}
