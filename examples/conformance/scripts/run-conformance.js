#!/usr/bin/env node
// Runs the official MCP conformance suite against the conformance example over Streamable
// HTTP, three times against one server (one endpoint serves both protocol eras):
//   - 0.1.16 `--suite all` (every 2025-era scenario, pending ones included);
//   - 0.2.0-alpha.12 `--requirements 2025-11-25` and `--requirements 2026-07-28`: exactly the
//     scenarios each revision requires, each spoken at its own wire version (an initialize
//     handshake and sessions for 2025-11-25; stateless requests with `_meta` for 2026-07-28).
// Then on edge runtimes, the same app through the fetch handler: as a Cloudflare Worker on workerd
// (through Miniflare: scripts/serve-conformance-workerd.mjs bundles tsc's output and serves it
// stateless), `--requirements 2026-07-28` only (a Worker keeps no sessions); and on Deno
// (scripts/serve-conformance-deno.mjs, sessions in memory), both revisions' requirements.
// It exits 0 only when every run passes: no FAILURE check in any required scenario (every
// scenario for 0.1.16) except the known failures listed, with their cause, in the run's file.
// The suite has no stdio mode for servers (`server` takes only `--url`); the stdio transport
// is covered by the example's e2e test with real clients.
//
// The suite needs Node >= 22. Both versions and the npm package `node@22` live in their own
// folder, `examples/conformance/suite`, outside the workspace, installed here on first use: as
// a root dependency, `node` would put Node 22 first on PATH for every npm script. The server
// under test runs on the Node that runs this script (Node 20 in CI).
//
// `node run-conformance.js [label ...] [-- suite options]`, e.g. `-- --verbose`; a run label
// (`0.1.16`, `2025-11-25`, `2026-07-28`, `tasks`, `extensions`) picks the runs to do, a target (`node`, `mounted`, `workerd`, `deno`) the servers.
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const example = join(root, 'examples', 'conformance');
const serverNode = process.execPath;
const suiteDir = join(example, 'suite');
const suiteModules = join(suiteDir, 'node_modules');
const suiteNode = join(suiteModules, 'node', 'bin', 'node');
const SUITE_TIMEOUT_MS = 180_000;

/**
 * The runs. `pkg` is the suite's folder in suite/node_modules (0.2.0-alpha.12 is installed
 * under an npm alias beside 0.1.16); `requirements` names the revision whose required server
 * scenarios decide the run (the others are reported, never counted); `knownFailures` lists the
 * scenarios known to fail, each with its cause. The run also fails when one of them passes.
 */
const RUNS = [
  { label: '0.1.16', pkg: '@modelcontextprotocol/conformance', args: ['--suite', 'all'], knownFailures: 'expected-failures.yml' },
  {
    label: '2025-11-25',
    pkg: 'conformance-next',
    args: ['--requirements', '2025-11-25'],
    requirements: '2025-11-25',
    knownFailures: 'expected-failures.2025-11-25.yml',
  },
  {
    label: '2026-07-28',
    pkg: 'conformance-next',
    args: ['--requirements', '2026-07-28'],
    requirements: '2026-07-28',
    knownFailures: 'expected-failures.2026-07-28.yml',
  },
  {
    // The tasks extension (SEP-2663): extension scenarios are on no revision's timeline, so each
    // is run by name (`--scenario`, `--force`), and all of them are counted.
    label: 'tasks',
    pkg: 'conformance-next',
    args: ['--spec-version', '2026-07-28', '--force'],
    scenarios: [
      'tasks-lifecycle',
      'tasks-capability-negotiation',
      'tasks-wire-fields',
      'tasks-request-state-removal',
      'tasks-mrtr-input',
      'tasks-request-headers',
      'tasks-dispatch-and-envelope',
      'tasks-status-notifications',
      'tasks-required-task-error',
      'tasks-mrtr-composition',
    ],
    knownFailures: 'expected-failures.tasks.yml',
  },
  {
    // The other extensions the example serves (Skills, SEP-2640) and the Mcp-Param header check
    // (SEP-2243), which the 2026-07-28 requirement set leaves unscored: run by name, all counted.
    label: 'extensions',
    pkg: 'conformance-next',
    args: ['--spec-version', '2026-07-28', '--force'],
    scenarios: ['sep-2640-skills-directory', 'sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'http-custom-header-server-validation'],
    knownFailures: 'expected-failures.extensions.yml',
  },
];

/**
 * The servers the runs go against, each on a port of 127.0.0.1 of its own choosing (port 0): `start()`
 * spawns it, `ready(child)` resolves with its MCP endpoint once it prints where it listens. A port
 * picked here beforehand could be taken meanwhile, by another target's server among others, which
 * would then answer in its place. `runs` names the runs it takes; `knownFailures` (optional)
 * replaces a run's file of known failures for this target.
 */
// The node listener's `listening` log line (request log level info, the default), with the endpoint's URL.
const LISTENING_LOG = /"msg":"listening","url":"(http:[^"]+)"/;
const TARGETS = [
  {
    name: 'node',
    start: () => spawn(serverNode, [join(example, 'dist', 'server.js'), '--http', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'inherit', 'pipe'] }),
    ready: (child) => waitForLine(child, LISTENING_LOG, 15_000),
    runs: RUNS.map((run) => run.label),
    knownFailures: {},
  },
  {
    // Two example apps under one endpoint: the conformance example with the weather example mounted into it.
    name: 'mounted',
    start: () => spawn(serverNode, [join(__dirname, 'serve-conformance-mounted.js'), '0'], { stdio: ['ignore', 'inherit', 'pipe'] }),
    ready: (child) => waitForLine(child, LISTENING_LOG, 15_000),
    runs: ['2025-11-25', '2026-07-28'],
    knownFailures: {},
  },
  {
    name: 'workerd',
    start: () => spawn(serverNode, [join(__dirname, 'serve-conformance-workerd.mjs')], { env: withoutPort(process.env), stdio: ['ignore', 'inherit', 'pipe'] }),
    ready: (child) => waitForLine(child, /listening on (http:\S+)/, 60_000),
    runs: ['2026-07-28'],
    knownFailures: { '2026-07-28': 'expected-failures.workerd.2026-07-28.yml' },
  },
  {
    name: 'deno',
    start: () =>
      spawn(join(root, 'node_modules', '.bin', 'deno'), ['run', '--allow-net', '--allow-read', '--allow-env', '--allow-sys', join(__dirname, 'serve-conformance-deno.mjs')], {
        env: { ...withoutPort(process.env), NO_COLOR: '1' },
        stdio: ['ignore', 'inherit', 'pipe'],
      }),
    ready: (child) => waitForLine(child, /listening on (http:\S+)/, 60_000),
    runs: ['2025-11-25', '2026-07-28'],
    knownFailures: { '2025-11-25': 'expected-failures.deno.2025-11-25.yml', '2026-07-28': 'expected-failures.deno.2026-07-28.yml' },
  },
];

/** The environment without PORT: the edge scripts then listen on a port of their own choosing. */
function withoutPort(env) {
  const { PORT: _port, ...rest } = env;
  return rest;
}

/**
 * Resolves with the URL `pattern`'s first group captures, once the child prints a line matching it on stderr
 * (then passes the rest on when CONFORMANCE_SERVER_LOG is set).
 */
function waitForLine(child, pattern, timeoutMs) {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the server did not print ${pattern} within ${timeoutMs} ms:\n${seen}`)), timeoutMs);
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      if (process.env.CONFORMANCE_SERVER_LOG) process.stderr.write(chunk);
      if (seen === undefined) return;
      seen += chunk;
      const match = pattern.exec(seen);
      if (match) {
        seen = undefined;
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited early with code ${code}:\n${seen ?? ''}`));
    });
  });
}

const entryOf = (run) => join(suiteModules, ...run.pkg.split('/'), 'dist', 'index.js');
const versionOf = (run) => JSON.parse(readFileSync(join(suiteModules, ...run.pkg.split('/'), 'package.json'), 'utf8')).version;

/** Installs the suites and Node 22 from the npm registry (package-lock pinned) unless already there. */
function installSuite() {
  if (existsSync(suiteNode) && RUNS.every((run) => existsSync(entryOf(run)))) return;
  console.log('conformance: installing the suites and Node 22 into examples/conformance/suite (once)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: suiteDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${suiteDir} failed with code ${result.status}`);
}

/** Scenario names in a YAML list under `key:` (`- name` lines, or `- scenario: name` entries; a `#` comment may follow). */
function yamlList(file, key) {
  if (!existsSync(file)) return [];
  const names = [];
  let inside = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (/^\S/.test(line)) inside = line.startsWith(`${key}:`);
    else if (inside) {
      const name = /^\s*-\s*(?:scenario:\s*)?([\w/-]+)\s*(?:#.*)?$/.exec(line)?.[1];
      if (name) names.push(name);
    }
  }
  return names;
}

/** The server scenarios a revision requires, from the requirement file the suite ships. */
function requiredScenarios(run) {
  const file = join(suiteModules, ...run.pkg.split('/'), 'requirements', `${run.requirements}.yaml`);
  const names = yamlList(file, 'server');
  if (names.length === 0) throw new Error(`no server scenarios found in ${file}`);
  return new Set(names);
}

/**
 * Reads every scenario's checks.json. A FAILURE check in a counted scenario fails the run
 * unless the scenario is a known failure; a known failure that passes fails it too (the entry
 * is stale). WARNINGs never fail; scenarios a requirement set does not score are only reported.
 */
function judge(run, out, knownFailures = run.knownFailures, target = 'node') {
  const name = `${target} ${run.label}`;
  const dirs = readdirSync(out);
  if (dirs.length === 0) {
    console.error(`conformance ${name}: the suite wrote no results`);
    return { ok: false, line: `${run.label}: no results` };
  }
  const required = run.scenarios ? new Set(run.scenarios) : run.requirements ? requiredScenarios(run) : undefined;
  const counted = (scenario) => !required || required.has(scenario);
  const failed = new Set();
  const seen = new Set();
  let checks = 0;
  let passedChecks = 0;
  for (const dir of dirs) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1] ?? dir;
    if (!counted(scenario)) continue;
    seen.add(scenario);
    const file = join(out, dir, 'checks.json');
    // A scenario that threw leaves its folder without checks.json: the suite counts it as failed.
    const results = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : [{ status: 'FAILURE' }];
    for (const check of results) {
      if (check.status !== 'SUCCESS' && check.status !== 'FAILURE') continue;
      checks++;
      if (check.status === 'SUCCESS') passedChecks++;
      else failed.add(scenario);
    }
  }
  const missing = required ? [...required].filter((s) => !seen.has(s)) : [];
  const knownFile = join(example, knownFailures);
  const known = new Set(yamlList(knownFile, 'server'));
  const unexpected = [...failed, ...missing].filter((s) => !known.has(s));
  const stale = [...known].filter((s) => !failed.has(s) && !missing.includes(s));
  const scope = run.scenarios ? 'scenarios' : required ? `required by ${run.requirements}` : 'scenarios';
  const line = `${run.label}: ${seen.size - failed.size}/${seen.size + missing.length} ${scope} passed, ${passedChecks}/${checks} checks`;
  console.log(`conformance ${target} ${line}; failing: ${[...failed, ...missing].join(', ') || 'none'}`);
  if (missing.length > 0) console.error(`conformance ${name}: no results for ${missing.join(', ')}`);
  if (unexpected.length > 0) console.error(`conformance ${name}: FAILED: ${unexpected.join(', ')} (not in ${knownFailures})`);
  if (stale.length > 0) console.error(`conformance ${name}: FAILED: ${stale.join(', ')} now pass: remove them from ${knownFile}`);
  return { ok: unexpected.length === 0 && stale.length === 0, line };
}

/**
 * Runs one suite invocation to completion (or the timeout) and judges its results. The suite's
 * output is printed in one piece when it ends, since the targets run at the same time.
 */
async function runSuite(run, url, extraArgs, knownFailures, target) {
  const out = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
  let output = `\nconformance ${target}: @modelcontextprotocol/conformance@${versionOf(run)} ${run.args.join(' ')} against ${url}\n`;
  try {
    for (const scenario of run.scenarios ?? [undefined]) await invoke(scenario ? ['--scenario', scenario] : []);
    process.stdout.write(output);
    return judge(run, out, knownFailures, target);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }

  function invoke(scenarioArgs) {
    return new Promise((resolve) => {
      const child = spawn(suiteNode, [entryOf(run), 'server', '--url', url, ...scenarioArgs, ...run.args, '-o', out, ...extraArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
      child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
      const timer = setTimeout(() => {
        output += `conformance ${target} ${run.label}: the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s\n`;
        child.kill('SIGKILL');
      }, SUITE_TIMEOUT_MS);
      child.on('close', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Starts one target's server, does its runs one after the other, stops it. */
async function runTarget(target, runs, extraArgs) {
  const started = Date.now();
  const server = target.start();
  const stop = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', stop);
  const results = [];
  try {
    const url = await target.ready(server);
    for (const run of runs) {
      const result = await runSuite(run, url, extraArgs, target.knownFailures[run.label], target.name);
      results.push({ ...result, line: `${target.name} ${result.line}` });
    }
  } catch (error) {
    console.error(`conformance ${target.name}: ${error.message}`);
    results.push({ ok: false, line: `${target.name}: ${error.message.split('\n')[0]}` });
  } finally {
    stop();
    process.off('exit', stop);
  }
  console.log(`conformance ${target.name}: ${((Date.now() - started) / 1000).toFixed(1)} s, server start included`);
  return results;
}

async function main() {
  const dashDash = process.argv.indexOf('--');
  const labels = process.argv.slice(2, dashDash === -1 ? undefined : dashDash);
  const extraArgs = dashDash === -1 ? [] : process.argv.slice(dashDash + 1);
  const unknown = labels.filter((label) => !RUNS.some((run) => run.label === label) && !TARGETS.some((target) => target.name === label));
  if (unknown.length > 0) throw new Error(`no run or target named ${unknown.join(', ')}; the runs are ${RUNS.map((r) => r.label).join(', ')}, the targets ${TARGETS.map((t) => t.name).join(', ')}`);
  const runLabels = labels.filter((label) => RUNS.some((run) => run.label === label));
  const targetNames = labels.filter((label) => TARGETS.some((target) => target.name === label));
  const targets = TARGETS.filter((target) => targetNames.length === 0 || targetNames.includes(target.name));
  installSuite();
  // The targets run at the same time: the suite mostly waits (on its scenarios' timers and the
  // server), so on two cores this takes about as long as the longest target alone.
  const started = Date.now();
  const jobs = targets
    .map((target) => ({ target, runs: RUNS.filter((run) => target.runs.includes(run.label) && (runLabels.length === 0 || runLabels.includes(run.label))) }))
    .filter(({ runs }) => runs.length > 0);
  const results = (await Promise.all(jobs.map(({ target, runs }) => runTarget(target, runs, extraArgs)))).flat();
  console.log(`conformance: ${((Date.now() - started) / 1000).toFixed(1)} s in all`);
  console.log(`\nconformance summary:\n${results.map((r) => `  ${r.ok ? 'ok  ' : 'FAIL'} ${r.line}`).join('\n')}`);
  process.exitCode = results.length > 0 && results.every((r) => r.ok) ? 0 : 1;
}

main().catch((error) => {
  console.error(`conformance: ${error.message}`);
  process.exitCode = 1;
});
