#!/usr/bin/env node
// Runs the official MCP conformance suite (`--suite all`) against the conformance example
// over Streamable HTTP and exits with the suite's status: 0 only when every check passes.
// The suite needs Node >= 22. It and the npm package `node@22` live in their own folder,
// `examples/conformance/suite`, outside the workspace, installed here on first use: as a
// root dependency, `node` would put Node 22 first on PATH for every npm script. The server
// under test runs on the Node that runs this script (Node 20 in CI).
'use strict';
const { spawn, spawnSync } = require('node:child_process');
const { createServer } = require('node:net');
const { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const root = join(__dirname, '..', '..', '..');
const serverNode = process.execPath;
const suiteDir = join(root, 'examples', 'conformance', 'suite');
const suiteNode = join(suiteDir, 'node_modules', 'node', 'bin', 'node');
const suite = join(suiteDir, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');

/** Installs the suite and Node 22 from the npm registry (package-lock pinned) unless already there. */
function installSuite() {
  if (existsSync(suiteNode) && existsSync(suite)) return;
  console.log('conformance: installing the suite and Node 22 into examples/conformance/suite (once)');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: suiteDir, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`npm ci in ${suiteDir} failed with code ${result.status}`);
}
// Known failures, each with its cause; the run also fails when one of them starts passing.
const baseline = join(root, 'examples', 'conformance', 'expected-failures.yml');
const SUITE_TIMEOUT_MS = 180_000;

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server did not answer ${url} within ${timeoutMs} ms`);
}

/** Scenario names listed under `server:` in the known-failures file. */
function knownFailures() {
  if (!existsSync(baseline)) return new Set();
  return new Set(readFileSync(baseline, 'utf8').split('\n').map((l) => /^\s*-\s*([\w-]+)/.exec(l)?.[1]).filter(Boolean));
}

/**
 * Reads every scenario's checks.json. A FAILURE check fails the run unless its scenario is a
 * known failure; a known failure that passes fails it too (the entry is stale). WARNINGs never fail.
 */
function judge(out, suiteCode) {
  const dirs = readdirSync(out);
  if (dirs.length === 0) {
    console.error(`conformance: the suite wrote no results (exit code ${suiteCode})`);
    return 1;
  }
  const failed = new Set();
  let checks = 0;
  for (const dir of dirs) {
    const scenario = /^server-(.+)-\d{4}-\d\d-\d\dT/.exec(dir)?.[1] ?? dir;
    for (const check of JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8'))) {
      checks++;
      if (check.status === 'FAILURE') failed.add(scenario);
    }
  }
  const known = knownFailures();
  const unexpected = [...failed].filter((s) => !known.has(s));
  const stale = [...known].filter((s) => !failed.has(s));
  console.log(`conformance: ${dirs.length} scenarios, ${checks} checks; failing scenarios: ${[...failed].join(', ') || 'none'}`);
  if (unexpected.length > 0) console.error(`conformance: FAILED: ${unexpected.join(', ')} (not known failures)`);
  if (stale.length > 0) console.error(`conformance: FAILED: ${stale.join(', ')} now pass: remove them from ${baseline}`);
  return unexpected.length > 0 || stale.length > 0 ? 1 : 0;
}

async function main() {
  installSuite();
  const port = await freePort();
  const server = spawn(serverNode, [join(root, 'examples', 'conformance', 'dist', 'server.js'), '--http', '--port', String(port), '--host', '127.0.0.1'], {
    stdio: ['ignore', 'inherit', process.env.CONFORMANCE_SERVER_LOG ? 'inherit' : 'ignore'],
  });
  const stop = () => {
    if (server.exitCode === null) server.kill('SIGTERM');
  };
  process.on('exit', stop);
  try {
    await waitForHealth(`http://127.0.0.1:${port}/healthz`, server, 15_000);
    const url = `http://127.0.0.1:${port}/mcp`;
    console.log(`conformance: running @modelcontextprotocol/conformance --suite all against ${url}`);
    const out = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
    const code = await new Promise((resolve) => {
      const run = spawn(suiteNode, [suite, 'server', '--url', url, '--suite', 'all', '-o', out, ...process.argv.slice(2)], { stdio: 'inherit' });
      const timer = setTimeout(() => {
        console.error(`conformance: the suite did not finish within ${SUITE_TIMEOUT_MS / 1000} s`);
        run.kill('SIGKILL');
      }, SUITE_TIMEOUT_MS);
      run.on('exit', (c, signal) => {
        clearTimeout(timer);
        resolve(c ?? (signal ? 1 : 0));
      });
    });
    process.exitCode = judge(out, code);
    rmSync(out, { recursive: true, force: true });
  } finally {
    stop();
  }
}

main().catch((error) => {
  console.error(`conformance: ${error.message}`);
  process.exitCode = 1;
});
