#!/usr/bin/env node
'use strict';
// A stdio MCP server behind a tape recorder: `node recordStdio.js <log.jsonl> <command> [args...]`
// starts the server, passes stdin and stdout through unchanged, and appends every line each way
// to the log as {"from":"client"|"server","message":...}. The interop tests read the log to see
// which protocol era a third-party client negotiated, from the server's side of the pipe.

const { spawn } = require('node:child_process');
const { appendFileSync } = require('node:fs');

const [log, command, ...args] = process.argv.slice(2);
if (!log || !command) {
  console.error('usage: node recordStdio.js <log.jsonl> <command> [args...]');
  process.exit(2);
}

const server = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });

/** Splits a byte stream into lines, records each one, and forwards the bytes untouched. */
function tap(from, input, output) {
  let pending = '';
  input.on('data', (chunk) => {
    output.write(chunk);
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) if (line.trim() !== '') record(from, line);
  });
  input.on('end', () => {
    if (pending.trim() !== '') record(from, pending);
  });
}

function record(from, line) {
  let message;
  try {
    message = JSON.parse(line);
  } catch {
    message = { unparsed: line };
  }
  appendFileSync(log, `${JSON.stringify({ from, message })}\n`);
}

tap('client', process.stdin, server.stdin);
tap('server', server.stdout, process.stdout);
process.stdin.on('end', () => server.stdin.end());
server.stdin.on('error', () => {}); // the server went away first; its exit ends us below
for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
