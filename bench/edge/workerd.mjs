// What the edge benches that start workerd share (run.mjs, profile-workerd.mjs, cold-callgrind.mjs):
// a free port, a workerd config for one Worker bundle, and a process's CPU time.
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { WORKERS_DIR } from './build-workers.mjs';

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Writes `<name>.capnp` in WORKERS_DIR: workerd serving `module` (a Worker bundle, relative to
 * WORKERS_DIR) on 127.0.0.1:port, with nodejs_compat and the given V8 flags. Returns its path.
 */
export function writeWorkerdConfig(name, port, module, v8Flags = []) {
  const file = join(WORKERS_DIR, `${name}.capnp`);
  const flags = v8Flags.length > 0 ? `\n  v8Flags = [${v8Flags.map((flag) => JSON.stringify(flag)).join(', ')}],` : '';
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "main", worker = .worker)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],${flags}
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "${module}")],
  compatibilityDate = "2026-07-01",
  compatibilityFlags = ["nodejs_compat"],
);
`,
  );
  return file;
}

/** CPU time of a process (all its threads) so far, in ms (/proc clock ticks of 10 ms, USER_HZ). */
export function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}
