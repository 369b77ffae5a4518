import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { startRoundRobinProxy } from './proxy';

/**
 * `npm start`: three instances (ports 3001-3003) and the round-robin proxy on 3000, with
 * Redis at REDIS_URL (default redis://127.0.0.1:6379: start `redis-server` first).
 * Point a client at http://127.0.0.1:3000/mcp. Ctrl-C stops everything.
 */
async function main(): Promise<void> {
  const ports = [3001, 3002, 3003];
  const children: ChildProcess[] = ports.map((port, i) =>
    spawn(process.execPath, [join(__dirname, 'server.js'), '--port', String(port)], { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, INSTANCE: `instance-${i + 1}` } }),
  );
  await new Promise((r) => setTimeout(r, 1000));
  const proxy = await startRoundRobinProxy(
    ports.map((p) => `http://127.0.0.1:${p}/mcp`),
    Number(process.env.PORT ?? 3000),
  );
  process.stderr.write(`proxy listening on ${proxy.url} (round robin over ${ports.join(', ')})\n`);
  const stop = () => {
    for (const child of children) child.kill('SIGTERM');
    void proxy.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

void main();
