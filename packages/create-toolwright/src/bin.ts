#!/usr/bin/env node
/**
 * `npm create toolwright <dir> -- [options]` runs this, which is `toolwright new <dir> [options]`:
 * the same generator, flags, prompts and exit codes.
 */
import { processIo, runCli } from '@toolwright/cli';

runCli(['new', ...process.argv.slice(2)], processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 70;
  },
);
