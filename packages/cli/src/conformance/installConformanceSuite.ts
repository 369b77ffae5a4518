import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { println, type Io } from '../cli/Io';
import { ServerError } from '../cli/UsageError';
import { CONFORMANCE_PACKAGES, type ConformanceRun } from './conformanceSuite';

export interface InstalledSuite {
  readonly node: string;
  entry(run: ConformanceRun): string;
  modules: string;
}

/**
 * The folder the suite lives in: TOOLWRIGHT_CONFORMANCE_DIR, else a per-user cache folder
 * named after the pinned versions, so an upgrade installs beside the old one.
 */
export function conformanceDir(env: NodeJS.ProcessEnv): string {
  if (env.TOOLWRIGHT_CONFORMANCE_DIR) return env.TOOLWRIGHT_CONFORMANCE_DIR;
  const cache = env.XDG_CACHE_HOME ?? join(homedir(), '.cache');
  const version = CONFORMANCE_PACKAGES['conformance-next'].replace(/^npm:.*@/, '');
  return join(cache, 'toolwright', `conformance-${version}`);
}

/** Installs the suite and Node 22 from the npm registry into `dir` unless they are there. */
export function installConformanceSuite(dir: string, io: Io): InstalledSuite {
  const modules = join(dir, 'node_modules');
  const suite: InstalledSuite = {
    node: join(modules, 'node', 'bin', 'node'),
    modules,
    entry: (run) => join(modules, ...run.pkg.split('/'), 'dist', 'index.js'),
  };
  const present = existsSync(suite.node) && Object.keys(CONFORMANCE_PACKAGES).every((pkg) => pkg === 'node' || existsSync(join(modules, ...pkg.split('/'), 'dist', 'index.js')));
  if (present) return suite;
  println(io.stderr, `Installing the MCP conformance suite and the Node 22 it needs into ${dir} (about 240 MB from the npm registry, once)...`);
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, 'package.json'))) {
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ private: true, dependencies: CONFORMANCE_PACKAGES, allowScripts: { node: true } }, null, 2)}\n`);
  }
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // A folder with a lockfile (the repository's own suite folder) installs exactly that.
  const result = spawnSync(npm, [existsSync(join(dir, 'package-lock.json')) ? 'ci' : 'install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
    shell: process.platform === 'win32',
  });
  if (result.status !== 0) throw new ServerError(`Installing with npm in ${dir} failed (exit ${result.status}). Check the network to the npm registry, then run the command again.`);
  return suite;
}
