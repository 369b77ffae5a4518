/**
 * `toolwright dev --inspect`: the dev loop serves HTTP on a fixed port and attaches the MCP
 * Inspector, or, on a Node too old for it, prints the exact command. `npx` is replaced by a
 * stub on PATH that records how it was called, so the test needs no download and no browser.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '@toolwright/cli';
import { inspectorCommand, nodeRunsInspector } from '../src/dev/inspector';
import { memoryIo } from './helpers/memoryIo';
import { waitFor } from './helpers/waitFor';

const CLI = join(__dirname, '..', 'bin', 'toolwright.js');
const MINIMAL = join(__dirname, '..', '..', '..', 'examples', 'minimal');
const APP = join(__dirname, '..', '..', '..', 'examples', 'app');
/** A server that takes 1.5 s to stop after SIGTERM. */
const SLOW_STOP = join(__dirname, 'fixtures', 'slow-stop-server.js');
/** A server that listens on its --port, stops listening on SIGUSR2 (and keeps running), and exits on SIGTERM. */
const PORT_SERVER = join(__dirname, 'fixtures', 'port-server.js');

describe('toolwright dev --inspect', () => {
  let stubDir: string;
  beforeAll(() => {
    stubDir = mkdtempSync(join(tmpdir(), 'toolwright-npx-stub-'));
    writeFileSync(join(stubDir, 'npx'), `#!/bin/sh\necho "$@" > "${join(stubDir, 'npx-args')}"\nexec sleep 60\n`);
    chmodSync(join(stubDir, 'npx'), 0o755);
  });
  afterAll(() => rmSync(stubDir, { recursive: true, force: true }));

  it('knows which Node runs the Inspector', () => {
    expect([nodeRunsInspector('20.20.2'), nodeRunsInspector('22.18.0'), nodeRunsInspector('22.19.0'), nodeRunsInspector('24.1.0')]).toEqual([false, false, true, true]);
  });

  it('serves HTTP on the chosen port, and starts the Inspector on it or says exactly how', async () => {
    const port = 20_000 + (process.pid % 20_000);
    const url = `http://127.0.0.1:${port}/mcp`;
    const dev = spawn(process.execPath, [CLI, 'dev', '--inspect', '--port', String(port)], {
      cwd: MINIMAL,
      env: { ...process.env, PATH: `${stubDir}:${process.env.PATH}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    try {
      await waitFor(
        () => stderr.includes('server started'),
        'the server',
        () => stderr,
      );
      expect(stderr).toContain(`--http --port ${port} --host 127.0.0.1`);
      if (nodeRunsInspector()) {
        await waitFor(
          () => existsSync(join(stubDir, 'npx-args')),
          'npx',
          () => stderr,
        );
        expect(readFileSync(join(stubDir, 'npx-args'), 'utf8').trim()).toBe(inspectorCommand(url).slice(1).join(' '));
      } else {
        // Written after "server started", so it may come in a later chunk of the pipe.
        const advice = `The server is on ${url}: from a shell with Node 22.19.0+, run\n  ${inspectorCommand(url).join(' ')}`;
        await waitFor(
          () => stderr.includes(advice),
          'the Inspector advice',
          () => stderr,
        );
      }
      const io = memoryIo(MINIMAL);
      await waitFor(
        () => /listening/.test(stderr),
        'the HTTP listener',
        () => stderr,
      );
      expect(await runCli(['call', url, 'greet', '--args', '{"name":"Ada"}'], io)).toBe(0);
      expect(io.output()).toBe('Hello, Ada!\n');
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
    }
  }, 120_000);

  // Issue 30 #9: killing `npx toolwright dev` by its PID left toolwright dev, tsc -w and the server running.
  it('stops tsc and the server when the process that started it goes, as npx killed by its PID does', async () => {
    // A stand-in for npx: starts toolwright dev and passes nothing on when it is killed.
    const wrapper = spawn(
      process.execPath,
      ['-e', `require('child_process').spawn(process.execPath, [${JSON.stringify(CLI)}, 'dev'], { stdio: ['ignore', 'ignore', 'inherit'] }); setInterval(() => {}, 1000);`],
      { cwd: MINIMAL, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    wrapper.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    let serverPid: number | undefined;
    try {
      await waitFor(
        () => /server started: .*\(pid (\d+)\)/.test(stderr),
        'the server',
        () => stderr,
      );
      serverPid = Number(/server started: .*\(pid (\d+)\)/.exec(stderr)![1]);
      expect(alive(serverPid)).toBe(true);
      wrapper.kill('SIGKILL');
      await waitFor(
        () => stderr.includes('the process that started toolwright dev has gone'),
        'toolwright dev to notice',
        () => stderr,
      );
      await waitFor(
        () => !alive(serverPid!),
        'the server to stop',
        () => stderr,
      );
    } finally {
      wrapper.kill('SIGKILL');
      if (serverPid !== undefined && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
    }
  }, 120_000);

  it('restarts the server when an MCP App view under views/ changes (tsc does not see it)', async () => {
    const view = join(APP, 'views', 'counter.html');
    const html = readFileSync(view, 'utf8');
    const dev = spawn(process.execPath, [CLI, 'dev', '--', '--http', '--port', '0'], { cwd: APP, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const starts = () => stderr.match(/server started/g)?.length ?? 0;
    try {
      await waitFor(
        () => /listening/.test(stderr),
        'the server',
        () => stderr,
      );
      writeFileSync(view, html); // the same bytes: a save in an editor
      await waitFor(
        () => starts() === 2 && stderr.includes('views/ changed; restarting the server'),
        'the restart',
        () => stderr,
      );
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
    }
  }, 120_000);

  it('Ctrl-C while a restart waits for the old server to stop ends the dev loop: no server starts after it', async () => {
    const view = join(APP, 'views', 'counter.html');
    const html = readFileSync(view, 'utf8');
    const dev = spawn(process.execPath, [CLI, 'dev', SLOW_STOP], { cwd: APP, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const servers = () => [...stderr.matchAll(/slow-stop server up \(pid (\d+)\)/g)].map((m) => Number(m[1]));
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    try {
      await waitFor(
        () => servers().length === 1,
        'the server',
        () => stderr,
      );
      writeFileSync(view, html); // a save in an editor: the restart stops the server, which takes 1.5 s
      await waitFor(
        () => stderr.includes('slow-stop server stopping'),
        'the restart',
        () => stderr,
      );
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      const waited = new Promise((resolve) => setTimeout(() => resolve('still running after 10 s'), 10_000).unref());
      expect(await Promise.race([exited, waited])).toEqual([0, null]);
      expect({ started: servers().length, alive: servers().filter(alive) }).toEqual({ started: 1, alive: [] });
    } finally {
      dev.kill('SIGKILL');
      for (const pid of servers()) if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
  }, 120_000);

  // The first build with errors said "the server keeps running the last good build" when no server had started.
  it('after a build with errors, says whether a server keeps running: none before the first good build', async () => {
    const project = mkdtempSync(join(tmpdir(), 'toolwright-dev-errors-'));
    symlinkSync(join(__dirname, '..', '..', '..', 'node_modules'), join(project, 'node_modules'), 'dir');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'dev-errors', private: true, main: 'dist/server.js' }));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist', strict: true, lib: ['ES2022', 'DOM'], types: [] }, include: ['src'] }));
    mkdirSync(join(project, 'src'));
    const source = (value: string) => `const up: string = ${value};\nconsole.error(up);\nsetInterval(() => undefined, 1000);\n`;
    writeFileSync(join(project, 'src', 'server.ts'), source('42'));
    const dev = spawn(process.execPath, [CLI, 'dev'], { cwd: project, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const none = 'build failed; the server starts after the next build without errors';
    const kept = 'build failed; the server keeps running the last good build';
    try {
      await waitFor(
        () => stderr.includes('build failed'),
        'the first build',
        () => stderr,
      );
      expect(stderr).toContain(none);
      expect(stderr).not.toContain(kept);
      expect(stderr).not.toContain('server started');
      // Written again every 5 s until seen: tsc's watcher can miss a write that lands as it settles after a build.
      const writeUntil = (text: string) => {
        let polls = 0;
        return () => {
          if (polls++ % 50 === 0) writeFileSync(join(project, 'src', 'server.ts'), text);
        };
      };
      const fixing = writeUntil(source("'server up'"));
      await waitFor(
        () => (fixing(), stderr.includes('server up')),
        'the server',
        () => stderr,
      );
      const breaking = writeUntil(source('43'));
      await waitFor(
        () => (breaking(), stderr.includes(kept)),
        'the second failed build',
        () => stderr,
      );
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
    } finally {
      dev.kill('SIGKILL');
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);

  // A taken --port started a server that failed with EADDRINUSE, and the Inspector opened on whatever held the port.
  it('refuses a --port another process holds, before it builds or starts anything', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as AddressInfo).port;
    try {
      const dev = spawn(process.execPath, [CLI, 'dev', '--inspect', '--port', String(port), PORT_SERVER], { cwd: APP, stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      const exited = once(dev, 'exit');
      const waited = new Promise((resolve) => setTimeout(() => resolve('still running after 20 s'), 20_000).unref());
      try {
        expect(await Promise.race([exited, waited])).toEqual([2, null]);
      } finally {
        dev.kill('SIGKILL');
      }
      expect(stderr).toBe(
        `error: Port ${port} on 127.0.0.1 is in use by another process (a server left running by an earlier toolwright dev?). Stop it, pass another --port, or leave --port off to use a free one.\n`,
      );
    } finally {
      blocker.close();
    }
  }, 60_000);

  // A restart started the new server at once: when another process had taken the port meanwhile, it failed with EADDRINUSE.
  it('a restart keeps the port: while another process holds it, the server waits, says so, and starts once it is free', async () => {
    const view = join(APP, 'views', 'counter.html');
    const html = readFileSync(view, 'utf8');
    const dev = spawn(process.execPath, [CLI, 'dev', '--inspect', PORT_SERVER], {
      cwd: APP,
      env: { ...process.env, PATH: `${stubDir}:${process.env.PATH}` },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    dev.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const ups = () => [...stderr.matchAll(/port-server up \(pid (\d+)\) on port (\d+)/g)].map((m) => ({ pid: Number(m[1]), port: Number(m[2]) }));
    const blocker = createServer();
    let stopped = false;
    try {
      await waitFor(
        () => ups().length === 1,
        'the server',
        () => stderr,
      );
      const [{ pid, port }] = ups();
      // The server lets go of its port while it runs, and only then does another process take it:
      // nothing else wants the port before the restart below, so taking it races no one.
      process.kill(pid, 'SIGUSR2');
      await waitFor(
        () => stderr.includes('port-server released its port'),
        'the server to release its port',
        () => stderr,
      );
      await new Promise<void>((resolve, reject) => {
        blocker.once('error', reject);
        blocker.listen(port, '127.0.0.1', resolve);
      });
      writeFileSync(view, html); // a save in an editor: a restart
      await waitFor(
        () => stderr.includes(`port ${port} on 127.0.0.1 is in use by another process, so the server waits to start until it is free`),
        'the wait',
        () => stderr,
      );
      expect(stderr).not.toContain('port-server failed');
      expect(ups()).toEqual([{ pid, port }]);
      await new Promise((resolve) => blocker.close(resolve));
      await waitFor(
        () => ups().length === 2,
        'the server on the freed port',
        () => stderr,
      );
      expect(ups().map((up) => up.port)).toEqual([port, port]);
      const exited = once(dev, 'exit');
      dev.kill('SIGINT');
      expect(await exited).toEqual([0, null]);
      stopped = true;
    } finally {
      dev.kill('SIGKILL');
      if (blocker.listening) blocker.close();
      // A test that failed leaves no server behind it (dev, killed, stops none); dev stopped them otherwise.
      if (!stopped) {
        for (const up of ups()) {
          try {
            process.kill(up.pid, 'SIGKILL');
          } catch {
            // It has exited.
          }
        }
      }
    }
  }, 120_000);

  it.each([
    [['dev', '--port', '3000'], '--port applies with --inspect'],
    [['dev', '--inspect', '--', '--http'], '--inspect chooses the HTTP flags itself'],
    [['dev', '--inspect', '--port', 'x'], "--port must be a port number (1-65535), got 'x'."],
  ])('%j is a usage error', async (argv, message) => {
    const io = memoryIo(MINIMAL);
    expect(await runCli(argv, io)).toBe(2);
    expect(io.errors()).toContain(message);
  });
});
