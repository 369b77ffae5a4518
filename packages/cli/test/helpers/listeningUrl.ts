import type { ChildProcess } from 'node:child_process';

/** The URL a server started with `--http --port 0` prints in its `listening` log line on stderr. */
export async function listeningUrl(server: ChildProcess, timeoutMs = 30_000): Promise<string> {
  let stderr = '';
  server.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((r) => setTimeout(r, 50))) {
    const url = /"url":"(http:[^"]+)"/.exec(stderr)?.[1];
    if (url) return url;
    if (Date.now() > deadline || server.exitCode !== null) throw new Error(`the server did not start:\n${stderr}`);
  }
}
