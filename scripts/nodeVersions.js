'use strict';
// The Node.js binaries the tests and the benchmark can run on: the machine's own, plus the
// versions pinned in scripts/node-versions/package.json (aliases `node<major>` of the npm
// `node` package). That folder is outside the workspace: as a root dependency, `node` would
// come first on PATH for every npm script. It is installed there on first use.

const { existsSync, readFileSync } = require('node:fs');
const { spawnSync } = require('node:child_process');
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
  if (!existsSync(binary)) {
    console.error(`installing the pinned Node.js versions (${Object.values(pinned).join(', ')}) into ${DIR} (once)`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: DIR, stdio: ['ignore', 'inherit', 'inherit'] });
    if (result.status !== 0 || !existsSync(binary)) throw new Error(`npm ci in ${DIR} failed (exit ${result.status}); ${binary} is missing`);
  }
  return binary;
}

module.exports = { nodeBinary, pinnedVersions };
