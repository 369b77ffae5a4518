import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import { resolveEntry } from '../client/resolveEntry';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { UsageError } from '../cli/UsageError';

export const devCommand: Command = {
  name: 'dev',
  summary: 'Build in watch mode and restart the server after each successful build',
  options: {},
  help: `Usage: toolwright dev [entry] [-- <server args>]

Run the project's own tsc in watch mode (tsc -b -w: the real compiler, so decorator
metadata is emitted; never esbuild) and (re)start 'node <entry>' after every build without
errors. Compiler output and Toolwright's messages go to stderr; the server keeps stdin and
stdout, so a client can start 'toolwright dev' as a stdio server (a restart ends its
session: prefer HTTP while developing).

Arguments:
  [entry]            the compiled server (default: package.json "main", else dist/server.js)

Examples:
  toolwright dev
  toolwright dev -- --http --port 3000

Exit codes: 0 stopped with Ctrl-C, 2 invalid arguments or no TypeScript in the project.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one entry, got: ${args.positionals.join(' ')}.`);
    const entry = resolveEntry(io.cwd, args.positionals[0], args.rest, { mustExist: false });
    let tsc: string;
    try {
      tsc = require.resolve('typescript/bin/tsc', { paths: [entry.projectDir] });
    } catch {
      throw new UsageError(`No TypeScript in ${entry.projectDir}. Install it: npm install --save-dev typescript@5.9.3`);
    }
    const log = (message: string) => println(io.stderr, io.err.cyan(`[toolwright dev] ${message}`));
    const shown = relative(io.cwd, entry.file) || entry.file;
    let server: ChildProcess | undefined;

    const stopServer = async (): Promise<void> => {
      const running = server;
      server = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      const force = setTimeout(() => running.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(force);
    };
    const startServer = async (): Promise<void> => {
      await stopServer();
      if (!existsSync(entry.file)) return log(`${shown} does not exist after the build; pass the entry file: toolwright dev <entry>`);
      const child = spawn(entry.command, [...entry.args], { cwd: entry.projectDir, stdio: ['inherit', 'inherit', 'inherit'] });
      server = child;
      log(`server started: node ${shown}${args.rest.length ? ` ${args.rest.join(' ')}` : ''} (pid ${child.pid})`);
      child.on('exit', (code, signal) => {
        if (server === child) log(`server exited (${signal ?? `code ${code}`}); waiting for a change`);
      });
    };

    log(`watching ${relative(io.cwd, entry.projectDir) || '.'} with tsc`);
    const watcher = spawn(process.execPath, [tsc, '-b', '-w', '--preserveWatchOutput'], { cwd: entry.projectDir, stdio: ['ignore', 'pipe', 'pipe'] });
    let restarting = Promise.resolve();
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString();
      io.stderr.write(text);
      // tsc ends each watch build with "Found N errors. Watching for file changes."
      for (const match of text.matchAll(/Found (\d+) errors?\. Watching for file changes/g)) {
        if (match[1] === '0') restarting = restarting.then(startServer);
        else log('build failed; the server keeps running the last good build');
      }
    };
    watcher.stdout.on('data', onOutput);
    watcher.stderr.on('data', onOutput);

    return new Promise<number>((resolve) => {
      const shutdown = () => {
        process.off('SIGINT', shutdown);
        process.off('SIGTERM', shutdown);
        watcher.kill('SIGTERM');
        void stopServer().then(() => resolve(ExitCode.Ok));
      };
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
      watcher.on('exit', (code) => {
        if (code !== null && code !== 0) log(`tsc exited with code ${code}`);
      });
    });
  },
};
