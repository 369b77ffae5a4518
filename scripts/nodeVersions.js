'use strict';
// The Node.js binaries the tests and the benchmark can run on: the machine's own, plus the
// versions pinned in scripts/node-versions/package.json (aliases `node<major>` of the npm
// `node` package). That folder is outside the workspace: as a root dependency, `node` would
// come first on PATH for every npm script. It is installed there on first use.

const { existsSync, mkdirSync, readFileSync, rmSync, statSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

const DIR = join(__dirname, 'node-versions');

/** { '22': '22.23.3', ... } from the pinned aliases. */
function pinnedVersions() {
  const { dependencies } = JSON.parse(readFileSync(join(DIR, 'package.json'), 'utf8'));
  const pinned = {};
  for (const [alias, spec] of Object.entries(dependencies)) {
    const match = /^node(\d+)$/.exec(alias) && /^npm:node@(\d+\.\d+\.\d+)$/.exec(spec);
    if (!match) throw new Error(`${join(DIR, 'package.json')}: expected "node<major>": "npm:node@<version>", got "${alias}": "${spec}"`);
    pinned[alias.slice('node'.length)] = match[1];
  }
  return pinned;
}

/**
 * The path of a node binary for `major` (a number or string such as '24'): this process's own
 * when its major matches, otherwise the pinned one, installed with `npm ci` if missing.
 */
function nodeBinary(major) {
  const wanted = String(major);
  if (wanted === process.versions.node.split('.')[0]) return process.execPath;
  const pinned = pinnedVersions();
  if (!(wanted in pinned)) {
    const known = [process.versions.node.split('.')[0], ...Object.keys(pinned)].join(', ');
    throw new Error(`Node.js ${wanted} is not available: choose one of ${known}, or pin it in ${join(DIR, 'package.json')} ("node${wanted}": "npm:node@${wanted}.x.y").`);
  }
  const binary = join(DIR, 'node_modules', `node${wanted}`, 'bin', 'node');
  if (existsSync(binary)) return binary;
  // Test files in parallel jest workers may ask at once: one process installs, the others wait for it.
  withInstallLock(() => {
    if (existsSync(binary)) return;
    console.error(`installing the pinned Node.js versions (${Object.values(pinned).join(', ')}) into ${DIR} (once)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0 || !existsSync(binary)) throw new Error(`npm ci in ${DIR} failed (exit ${result.status}); ${binary} is missing`);
  });
  return binary;
}

/** Runs `install` holding a lock folder (in the temporary directory, named after DIR); a lock older than 10 minutes is taken to be left by a killed process. */
function withInstallLock(install) {
  const lock = join(tmpdir(), `toolwright-node-versions-${createHash('sha256').update(DIR).digest('hex').slice(0, 12)}.lock`);
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() - started > 900_000)
        throw new Error(`waited 15 minutes for another process to install the pinned Node.js versions (${lock}); remove that folder if no install is running`, { cause: error });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    install();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

module.exports = { nodeBinary, pinnedVersions };
