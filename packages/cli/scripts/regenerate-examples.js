#!/usr/bin/env node
// Rewrites examples/<template> from the templates (after `npm run build`), removing files the
// generator no longer writes. Run it after changing a template, then commit the result.
const { rmSync } = require('node:fs');
const { join } = require('node:path');
const { generateProject } = require('../dist/generate/generateProject');
const { exampleProjects } = require('../dist/generate/exampleProjects');
const { cliVersion } = require('../dist/generate/packageRoot');
const { writeProject } = require('../dist/generate/writeProject');
const { projectDrift } = require('../dist/generate/projectDrift');

const repo = join(__dirname, '..', '..', '..');
(async () => {
  for (const { dir, options } of exampleProjects(cliVersion())) {
    const target = join(repo, dir);
    const files = generateProject(options);
    for (const stale of (await projectDrift(target, files)).extra) rmSync(join(target, stale));
    await writeProject(target, files);
    console.error(`wrote ${dir} (${files.length} files)`);
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
