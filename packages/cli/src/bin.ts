#!/usr/bin/env node
import { inspect } from 'node:util';
import { processIo } from './cli/Io';
import { terminalSafe } from './cli/terminalSafe';
import { runCli } from './runCli';

// A closed pipe (`toolwright inspect | head`) ends the output, not the program with a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not a user mistake: show the stack so it can be reported (its message may quote a server).
    console.error(terminalSafe(inspect(error)));
    process.exitCode = 70;
  },
);
