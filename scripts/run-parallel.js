#!/usr/bin/env node
'use strict';
// Runs npm scripts side by side and fails when any of them fails:
//
//   node scripts/run-parallel.js typecheck lint api:check
//   node scripts/run-parallel.js --jobs 2 test:docs "test:peer-range express" ...
//   node scripts/run-parallel.js --live test:after-build soak:ci test:after-build
//
// Without --jobs every script starts at once. With --jobs N at most N run at a time, started
// in the order given (put the longest first): when one ends, the next starts, so two cores
// stay busy to the end instead of one lane of fixed steps finishing long after the others.
// An item is an npm script, optionally followed by its arguments ("test:peer-range express"
// runs `npm run test:peer-range -- express`). `npm test` uses it for checks that share
// nothing. Each script's output is printed whole when it ends, so the logs do not interleave,
// but for the --live item's, printed as it comes (one long step beside a quiet one: jest beside
// the soak); the last lines list each script's time, and which failed.

const { spawn } = require('node:child_process');

function parse(argv) {
  const args = [...argv];
  let jobs = Infinity;
  let live;
  while (args[0] === '--jobs' || args[0] === '--live') {
    const option = args.shift();
    if (option === '--live') live = args.shift();
    else {
      jobs = Number(args.shift());
      if (!Number.isInteger(jobs) || jobs < 1) return { error: 'run-parallel: --jobs takes a whole number of at least 1, e.g. --jobs 2' };
    }
  }
  if (args.length === 0) return { error: 'usage: node scripts/run-parallel.js [--jobs N] [--live <item>] <npm script> [<npm script> ...], e.g. typecheck lint' };
  if (live !== undefined && !args.includes(live)) return { error: `run-parallel: --live ${live}: not among the items to run (${args.join(', ')})` };
  return { jobs, live, items: args };
}

/** After the live item failed: which items still run, and which are queued behind them. */
function reportWaiting(failed, items, ended, next) {
  const running = items.slice(0, next).filter((_, index) => !ended.has(index));
  const queued = items.slice(next);
  if (running.length === 0 && queued.length === 0) return;
  const then = queued.length === 0 ? '' : `${running.length === 0 ? '' : ', then '}${queued.join(', ')} (queued)`;
  console.error(`run-parallel: ${failed} failed; waiting for ${running.join(', ')}${then} to end (Ctrl-C stops it)`);
}

async function main(argv) {
  const { error, jobs, live, items } = parse(argv);
  if (error) {
    console.error(error);
    return 2;
  }
  const results = [];
  const ended = new Set();
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      const item = items[index];
      const result = await run(item, item === live);
      results.push(result);
      ended.add(index);
      if (item === live && result.code !== 0) reportWaiting(item, items, ended, next);
    }
  };
  await Promise.all(Array.from({ length: Math.min(jobs, items.length) }, lane));
  const failed = results.filter((r) => r.code !== 0).map((r) => `${r.item} (${r.code === null ? 'killed' : `exit ${r.code}`})`);
  console.error(`run-parallel: ${results.map((r) => `${r.item} ${r.seconds} s`).join(', ')}`);
  console.error(`run-parallel: ${failed.length === 0 ? 'all passed' : `FAILED: ${failed.join(', ')}`}`);
  return failed.length === 0 ? 0 : 1;
}

function run(item, live) {
  const [script, ...args] = item.split(' ').filter(Boolean);
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn('npm', ['run', '--silent', script, ...(args.length > 0 ? ['--', ...args] : [])], { stdio: ['ignore', live ? 'inherit' : 'pipe', live ? 'inherit' : 'pipe'] });
    const output = [];
    child.stdout?.on('data', (chunk) => output.push(chunk));
    child.stderr?.on('data', (chunk) => output.push(chunk));
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`\n> ${item} (${seconds} s, exit ${code})\n`);
      process.stdout.write(Buffer.concat(output));
      resolve({ item, code, seconds });
    });
  });
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
