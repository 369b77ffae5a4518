import { spawn, type ChildProcess } from 'node:child_process';
import { ServerError } from '../cli/UsageError';
import type { ServerEntry } from './resolveEntry';

/**
 * Starts a Toolwright server over Streamable HTTP on a free port of 127.0.0.1 (`--http --port 0
 * --host 127.0.0.1`) and resolves with its URL, read from the `listening` line it logs on stderr.
 * The server is this machine's only, for the client the CLI runs: a generated http project,
 * which refuses to start without `MCP_TOKENS`, is told `MCP_ALLOW_ANONYMOUS=1` unless the
 * environment says otherwise (with `MCP_TOKENS` set, its tokens still apply).
 */
export async function startHttpServer(entry: ServerEntry, stderr?: NodeJS.WritableStream, timeoutMs = 30_000): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(entry.command, [...entry.args, '--http', '--port', '0', '--host', '127.0.0.1'], {
    cwd: entry.projectDir,
    env: { ...process.env, MCP_ALLOW_ANONYMOUS: process.env.MCP_ALLOW_ANONYMOUS ?? '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-8000);
    stderr?.write(chunk);
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 50))) {
    const url = /"msg":"listening"[^\n]*"url":"(http[^"]+)"/.exec(log)?.[1];
    if (url) return { url, stop };
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new ServerError(
        `${entry.file} did not start serving HTTP${child.exitCode !== null ? ` (exit ${child.exitCode})` : ` within ${timeoutMs} ms`}. A Toolwright server serves HTTP with '--http --port 0' (parseListenArgs); for another server, start it yourself and pass its URL. Its stderr:\n${log.trim().split('\n').slice(-20).join('\n')}`,
      );
    }
  }
}
