#!/usr/bin/env node
'use strict';
// The root `version` lifecycle script: `lerna version` runs it after it has bumped every
// package (fixed mode, all packages every release) and before it commits. Lerna rewrites the
// `dependencies` between our packages but leaves `peerDependencies` it does not recognise as
// local (a plain "0.1.0"), so `@toolwright/server`'s peer on `@toolwright/core` and
// `@toolwright/redis`'s peer on `@toolwright/server` would still name the old version. This
// sets every reference from one of our packages to another, in any dependency field, to the
// version in lerna.json, and stages the files it changed for lerna's release commit. The examples
// (workspaces lerna does not version) depend on our packages at exactly that version too: left
// behind, npm would look for the old version on the registry when lerna updates the lockfile, and
// `toolwright new` (which generates four of them) would no longer write them as they are.
//
//   node scripts/sync-versions.js           write (what `lerna version` runs)
//   node scripts/sync-versions.js --check   exit 1, naming each stale reference, if any

const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies', 'peerDependencies'];

/** The manifests of the folders under `parent` (packages/ or examples/) and the text each was read from. */
function manifests(root, parent) {
  const dir = path.join(root, parent);
  return fs
    .readdirSync(dir)
    .filter((name) => fs.existsSync(path.join(dir, name, 'package.json')))
    .map((name) => {
      const file = path.join(dir, name, 'package.json');
      const text = fs.readFileSync(file, 'utf8');
      return { file, text, manifest: JSON.parse(text) };
    });
}

/** The references from one of our packages to another that do not name `version`: `{ file, field, name, spec }`. */
function staleReferences(root = ROOT, version = JSON.parse(fs.readFileSync(path.join(root, 'lerna.json'), 'utf8')).version) {
  const packages = manifests(root, 'packages');
  const ours = new Set(packages.map((p) => p.manifest.name));
  const stale = [];
  for (const { file, manifest } of [...packages, ...manifests(root, 'examples')]) {
    if (packages.some((p) => p.file === file) && manifest.version !== version) stale.push({ file, field: 'version', name: manifest.name, spec: manifest.version });
    for (const field of FIELDS) {
      for (const [name, spec] of Object.entries(manifest[field] ?? {})) {
        if (ours.has(name) && spec !== version) stale.push({ file, field, name, spec });
      }
    }
  }
  return { version, stale };
}

/** Rewrites the stale references in place, keeping each file's formatting; returns the files it changed. */
function syncVersions(root = ROOT) {
  const { version, stale } = staleReferences(root);
  const changed = new Set();
  for (const ref of stale) {
    if (ref.field === 'version') throw new Error(`${path.relative(root, ref.file)} is at ${ref.spec}, lerna.json at ${version}: run this from lerna version, which bumps both.`);
    const text = fs.readFileSync(ref.file, 'utf8');
    // The reference as written: "name": "spec" inside its field's object (one per field).
    const start = text.indexOf(`"${ref.field}"`);
    const at = text.indexOf(`${JSON.stringify(ref.name)}: ${JSON.stringify(ref.spec)}`, start);
    if (start === -1 || at === -1) throw new Error(`${path.relative(root, ref.file)}: cannot find ${ref.field}.${ref.name} written as "${ref.name}": "${ref.spec}".`);
    const next = `${text.slice(0, at)}${JSON.stringify(ref.name)}: ${JSON.stringify(version)}${text.slice(at + `${JSON.stringify(ref.name)}: ${JSON.stringify(ref.spec)}`.length)}`;
    fs.writeFileSync(ref.file, next);
    changed.add(ref.file);
  }
  return [...changed];
}

module.exports = { staleReferences, syncVersions };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const { version, stale } = staleReferences();
    if (stale.length > 0) {
      console.error(`sync-versions: these do not name ${version} (lerna.json):\n${stale.map((r) => `  ${path.relative(ROOT, r.file)} ${r.field}.${r.name} = ${r.spec}`).join('\n')}`);
      process.exit(1);
    }
    console.log(`sync-versions: every package and every reference between them is at ${version}.`);
  } else {
    const changed = syncVersions();
    if (changed.length > 0) {
      // lerna commits what it staged; these files are among them already, staged again with the peers.
      execFileSync('git', ['add', '--', ...changed], { cwd: ROOT, stdio: 'inherit' });
      console.error(`sync-versions: ${changed.map((f) => path.relative(ROOT, f)).join(', ')} now name the new version.`);
    }
  }
}
