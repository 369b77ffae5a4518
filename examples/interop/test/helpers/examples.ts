import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const EXAMPLES = join(__dirname, '..', '..', '..');

/** The built servers the clients drive (`npm run build` first). */
export const SERVERS = {
  weather: join(EXAMPLES, 'weather', 'dist', 'server.js'),
  full: join(EXAMPLES, 'full', 'dist', 'server.js'),
  app: join(EXAMPLES, 'app', 'dist', 'server.js'),
} as const;

/** drivers/recordStdio.js: puts a stdio server behind a recorder of every line each way. */
export const RECORD_STDIO = join(__dirname, '..', '..', 'drivers', 'recordStdio.js');

export interface HttpServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** Serves a built example over Streamable HTTP with its own entry (`--http --port 0`); resolves with its URL once it listens. */
export async function serveHttp(server: string, ...flags: string[]): Promise<HttpServer> {
  const child = spawn(process.execPath, [server, '--http', '--port', '0', ...flags], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (chunk: string) => {
      stderr += chunk;
      const match = /"msg":"listening","url":"([^"]+)"/.exec(stderr);
      if (match) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${server} exited (${code}) before listening: ${stderr}`)));
  });
  return { url, stop: () => stop(child) };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** A temporary folder, removed by the returned function: a client's HOME (some write config or tokens there) and the stdio logs. */
export function scratchDir(name: string): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), `toolwright-interop-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
