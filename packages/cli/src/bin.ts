#!/usr/bin/env node
import { processIo } from './cli/Io';
import { runCli } from './runCli';

runCli(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    // A bug, not a user mistake: show the stack so it can be reported.
    console.error(error);
    process.exitCode = 70;
  },
);
