import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoad } from './load';
import { startRoundRobinProxy } from './proxy';

/**
 * `npm run measure -w examples/scale-out [clients] [calls]`: the same load (default 50 x 200
 * `note` calls) against one instance with the in-memory stores, one with the Redis stores,
 * and three with Redis behind the proxy. Reports throughput and the CPU per call of the
 * instances (and of redis-server), read from /proc (Linux). Starts its own redis-server.
 */
const clockTicks = 100; // USER_HZ on Linux

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** CPU seconds (user + system) a process used so far. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 50));
}

async function scenario(name: string, count: number, env: Record<string, string>, clients: number, calls: number) {
  const ports = await Promise.all(Array.from({ length: count }, freePort));
  const children: ChildProcess[] = ports.map((port, i) =>
    spawn(process.execPath, [join(__dirname, 'server.js'), '--port', String(port)], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env, INSTANCE: `i${i}` } }),
  );
  for (const port of ports)
    await until(() =>
      fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      ),
    );
  const proxy = count > 1 ? await startRoundRobinProxy(ports.map((p) => `http://127.0.0.1:${p}/mcp`)) : undefined;
  const url = proxy?.url ?? `http://127.0.0.1:${ports[0]}/mcp`;
  await runLoad(url, 5, 20); // warm-up
  const redisPid = Number(env.REDIS_PID ?? 0);
  const before = children.map((c) => cpuOf(c.pid!));
  const redisBefore = redisPid ? cpuOf(redisPid) : 0;
  const report = await runLoad(url, clients, calls);
  const instanceCpu = children.reduce((sum, c, i) => sum + cpuOf(c.pid!) - before[i], 0);
  const redisCpu = redisPid ? cpuOf(redisPid) - redisBefore : 0;
  await proxy?.close();
  for (const child of children) child.kill('SIGTERM');
  const line = {
    scenario: name,
    ...report,
    instanceCpuMsPerCall: Math.round((instanceCpu * 1000 * 1000) / report.calls) / 1000,
    redisCpuMsPerCall: Math.round((redisCpu * 1000 * 1000) / report.calls) / 1000,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  await new Promise((r) => setTimeout(r, 300));
}

async function main(): Promise<void> {
  const [clients = '50', calls = '200'] = process.argv.slice(2);
  const dir = mkdtempSync(join(tmpdir(), 'scale-out-measure-'));
  const redisPort = await freePort();
  const redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  await new Promise((r) => setTimeout(r, 300));
  const env = { REDIS_URL: `redis://127.0.0.1:${redisPort}`, REDIS_PID: String(redis.pid) };
  try {
    await scenario('1 instance, in-memory stores', 1, { STORES: 'memory' }, Number(clients), Number(calls));
    await scenario('1 instance, Redis stores', 1, env, Number(clients), Number(calls));
    await scenario('3 instances, Redis stores, round-robin proxy', 3, env, Number(clients), Number(calls));
  } finally {
    redis.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
