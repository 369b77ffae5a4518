import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import { resolveEntry } from '../client/resolveEntry';
import type { Command, ParsedArgs } from '../cli/Command';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption, stringOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { INSPECTOR, inspectorCommand, nodeRunsInspector, startInspector } from '../dev/inspector';
import { portInUse } from '../dev/portInUse';

export const devCommand: Command = {
  name: 'dev',
  serverArgs: true,
  summary: 'Build in watch mode and restart the server after each successful build',
  options: { inspect: { type: 'boolean' }, port: { type: 'string' } },
  help: `Usage: toolwright dev [entry] [--inspect [--port <n>]] [-- <server args>]

Run the project's own tsc in watch mode (tsc -b -w: the real compiler, so decorator
metadata is emitted; never esbuild) and (re)start 'node <entry>' after every build without
errors, with TOOLWRIGHT_DEV=1 (skills({ dir }) then serves edits to its skills without a
restart, telling clients); a change under views/ (MCP App views from files) restarts it. Compiler output and Toolwright's messages go to stderr; the server keeps stdin and
stdout, so a client can start 'toolwright dev' as a stdio server (a restart ends its
session: prefer HTTP while developing).

With --inspect, the server serves Streamable HTTP on 127.0.0.1 (port --port, default a
free one, the same across restarts: a restart waits while another process holds it) and
the MCP Inspector's web UI opens on it: started here on Node ${INSPECTOR.node} or later
(npx downloads ${INSPECTOR.package}@${INSPECTOR.version} once); on an older Node, the
exact command to run it from a newer one is printed instead.

Arguments:
  [entry]            the compiled server (default: package.json "main", else dist/server.js)

Options:
      --inspect      serve HTTP and attach the MCP Inspector
      --port <n>     with --inspect: the HTTP port (default: a free port)
  -h, --help         show this help

Examples:
  toolwright dev
  toolwright dev -- --http --port 3000
  toolwright dev --inspect

Exit codes: 0 stopped with Ctrl-C, 2 invalid arguments or no TypeScript in the project.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one entry, got: ${args.positionals.join(' ')}.`);
    const inspect = booleanOption(args, 'inspect');
    const portOption = stringOption(args, 'port');
    if (portOption !== undefined && !inspect) throw new UsageError('--port applies with --inspect; otherwise pass the server its own flags: toolwright dev -- --http --port 3000.');
    if (inspect && args.rest.some((a) => a === '--http' || a === '--port')) throw new UsageError('--inspect chooses the HTTP flags itself; use --port <n> to pick the port.');
    const port = inspect ? (portOption === undefined ? await freePort() : parsePort(portOption)) : undefined;
    // A server started on a taken port fails with EADDRINUSE, and the Inspector would open on whatever holds it.
    if (portOption !== undefined && port !== undefined && (await portInUse(port))) {
      throw new UsageError(
        `Port ${port} on 127.0.0.1 is in use by another process (a server left running by an earlier toolwright dev?). Stop it, pass another --port, or leave --port off to use a free one.`,
      );
    }
    const serverArgs = port === undefined ? args.rest : [...args.rest, '--http', '--port', String(port), '--host', '127.0.0.1'];
    const entry = resolveEntry(io.cwd, args.positionals[0], serverArgs, { mustExist: false });
    let tsc: string;
    try {
      tsc = require.resolve('typescript/bin/tsc', { paths: [entry.projectDir] });
    } catch {
      throw new UsageError(`No TypeScript in ${entry.projectDir}. Install it: npm install --save-dev typescript@5.9.3`);
    }
    const log = (message: string) => println(io.stderr, io.err.cyan(`[toolwright dev] ${message}`));
    const shown = relative(io.cwd, entry.file) || entry.file;
    let server: ChildProcess | undefined;
    let inspector: ChildProcess | undefined;
    let inspectorShown = false;
    /** Set once Ctrl-C (or the parent's going) stops the dev loop: no server starts after it. */
    let stopping = false;

    /** Whether a server started by this loop is still up: none is before the first good build, or after it exits. */
    const serverRunning = (): boolean => server !== undefined && server.exitCode === null && server.signalCode === null;
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
    /**
     * With --inspect, the Inspector knows the server by its port, so a restart never moves it: it
     * waits while another process holds the port (the old server has exited by now, and its port
     * is free unless something else took it meanwhile), saying so after a second. False when the
     * dev loop stopped meanwhile.
     */
    const portFree = async (): Promise<boolean> => {
      if (port === undefined) return true;
      const since = Date.now();
      let told = false;
      while (!stopping && (await portInUse(port))) {
        if (!told && Date.now() - since >= 1000) {
          told = true;
          log(
            `port ${port} on 127.0.0.1 is in use by another process, so the server waits to start until it is free (the Inspector stays on http://127.0.0.1:${port}/mcp). Stop that process, or press Ctrl-C and run toolwright dev --inspect --port <another>.`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return !stopping;
    };
    const startServer = async (): Promise<void> => {
      await stopServer();
      if (stopping || !(await portFree())) return;
      if (!existsSync(entry.file)) return log(`${shown} does not exist after the build; pass the entry file: toolwright dev <entry>`);
      // --inspect serves on 127.0.0.1 for the inspector, which sends no token: a generated http project
      // (which refuses to start without MCP_TOKENS) is told MCP_ALLOW_ANONYMOUS=1, unless the environment says otherwise.
      // TOOLWRIGHT_DEV=1: the server serves what changes without a restart where it can (skills({ dir }) watches its folder).
      const env = { ...process.env, TOOLWRIGHT_DEV: '1', ...(inspect && { MCP_ALLOW_ANONYMOUS: process.env.MCP_ALLOW_ANONYMOUS ?? '1' }) };
      const child = spawn(entry.command, [...entry.args], { cwd: entry.projectDir, env, stdio: ['inherit', 'inherit', 'inherit'] });
      server = child;
      log(`server started: node ${shown}${serverArgs.length ? ` ${serverArgs.join(' ')}` : ''} (pid ${child.pid})`);
      if (port !== undefined && !inspectorShown) {
        inspectorShown = true;
        const url = `http://127.0.0.1:${port}/mcp`;
        if (nodeRunsInspector()) {
          log(`starting the MCP Inspector on ${url}`);
          inspector = startInspector(url, io.stderr);
        } else {
          log(
            `the MCP Inspector needs Node ${INSPECTOR.node} or later, and this is Node ${process.versions.node}. The server is on ${url}: from a shell with Node ${INSPECTOR.node}+, run\n  ${inspectorCommand(url).join(' ')}`,
          );
        }
      }
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
        else log(serverRunning() ? 'build failed; the server keeps running the last good build' : 'build failed; the server starts after the next build without errors');
      }
    };
    watcher.stdout.on('data', onOutput);
    watcher.stderr.on('data', onOutput);
    const views = watchViews(join(entry.projectDir, 'views'), () => {
      log('views/ changed; restarting the server');
      restarting = restarting.then(startServer);
    });

    return new Promise<number>((resolve) => {
      // Started through npx (or any wrapper) that is killed without passing the signal on, this
      // process is re-parented: stop then, so tsc -w and the server do not outlive it on their port.
      const parent = process.ppid;
      const orphaned = setInterval(() => {
        if (process.ppid === parent) return;
        log('the process that started toolwright dev has gone; stopping tsc and the server');
        shutdown();
      }, 500);
      orphaned.unref();
      const shutdown = () => {
        stopping = true;
        clearInterval(orphaned);
        process.off('SIGINT', shutdown);
        process.off('SIGTERM', shutdown);
        watcher.kill('SIGTERM');
        views?.close();
        inspector?.kill('SIGTERM');
        // A restart under way (waiting for the old server to exit) ends first, so the server stopped here is the last one.
        void restarting.then(stopServer, stopServer).then(() => resolve(ExitCode.Ok));
      };
      process.on('SIGINT', shutdown);
      process.on('SIGTERM', shutdown);
      watcher.on('exit', (code) => {
        if (code !== null && code !== 0) log(`tsc exited with code ${code}`);
      });
    });
  },
};

/**
 * MCP App views from files (`@UiResource(uri, { file })`) are read when the server starts, and
 * tsc does not see them: a change under the project's `views/` folder restarts the server once
 * the burst of events settles. Undefined when the project has no such folder.
 */
function watchViews(dir: string, restart: () => void): FSWatcher | undefined {
  if (!existsSync(dir)) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const watcher = watch(dir, { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(restart, 150);
  });
  watcher.on('error', () => undefined);
  return watcher;
}

function parsePort(raw: string): number {
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new UsageError(`--port must be a port number (1-65535), got '${raw}'.`);
  return port;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
