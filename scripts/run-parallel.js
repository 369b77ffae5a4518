#!/usr/bin/env node
'use strict';
// Runs npm scripts at the same time and fails when any of them fails:
//
//   node scripts/run-parallel.js typecheck lint api:check
//
// `npm test` uses it for checks that read the tree and share nothing (each is one busy
// process, so two cores run two of them in the time of one). Each script's output is printed
// whole when it ends, so the logs do not interleave; the last line says which failed.

const { spawn } = require('node:child_process');

async function main(scripts) {
  if (scripts.length === 0) {
    console.error('usage: node scripts/run-parallel.js <npm script>..., e.g. typecheck lint');
    return 2;
  }
  const results = await Promise.all(scripts.map(run));
  const failed = results.filter((r) => r.code !== 0).map((r) => `${r.script} (${r.code === null ? 'killed' : `exit ${r.code}`})`);
  console.error(`run-parallel: ${failed.length === 0 ? `${scripts.join(', ')} passed` : `FAILED: ${failed.join(', ')}`}`);
  return failed.length === 0 ? 0 : 1;
}

function run(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      process.stdout.write(`\n> ${script} (${((Date.now() - started) / 1000).toFixed(1)} s, exit ${code})\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ script, code });
    });
  });
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
