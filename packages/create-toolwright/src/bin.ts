#!/usr/bin/env node
/**
 * `npm create toolwright <dir> -- [options]` runs this, which is `toolwright new <dir> [options]`:
 * the same generator, flags, prompts and exit codes. Its messages name the command the user ran,
 * since `toolwright` itself is not installed on this route.
 */
import { processIo, runCli } from '@toolwright/cli';

runCli(['new', ...process.argv.slice(2)], processIo(), { invocation: 'npm create toolwright@latest --' }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error);
    process.exitCode = 70;
  },
);
