import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveEntry } from '../client/resolveEntry';
import { startHttpServer } from '../client/startHttpServer';
import type { Command, ParsedArgs } from '../cli/Command';
import { count } from '../cli/count';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { CONFORMANCE_PACKAGES, CONFORMANCE_RUNS, type ConformanceRun } from '../conformance/conformanceSuite';
import { conformanceDir, installConformanceSuite, type InstalledSuite } from '../conformance/installConformanceSuite';
import { judgeConformance } from '../conformance/judgeConformance';

export const testConformanceCommand: Command = {
  name: 'test-conformance',
  summary: 'Run the official MCP conformance suite against your server',
  options: { run: { type: 'string', multiple: true }, scenario: { type: 'string' }, verbose: { type: 'boolean' } },
  help: `Usage: toolwright test-conformance [server] [--run <label>]... [--scenario <name>] [-- <server args>]

Run the official MCP conformance suite (the server scenarios) against your server, with the
versions the Toolwright repository tests itself with:
  @modelcontextprotocol/conformance ${CONFORMANCE_PACKAGES['@modelcontextprotocol/conformance']} and ${CONFORMANCE_PACKAGES['conformance-next'].replace('npm:', '')},
on Node ${CONFORMANCE_PACKAGES.node}. The first run installs them from the npm registry (about 240 MB) into
~/.cache/toolwright (or TOOLWRIGHT_CONFORMANCE_DIR); your server runs on your own Node.

Arguments:
  [server]           the compiled server (default: package.json "main", else dist/server.js),
                     started over HTTP with '--http --port 0'; or the URL of a running server

Options:
      --run <label>  which run (repeatable; default 2025-11-25):
${CONFORMANCE_RUNS.map((r) => `                       ${r.label.padEnd(11)} ${r.args.join(' ')}`).join('\n')}
      --scenario <name>  only this scenario
      --verbose      show the suite's and the server's output
  -h, --help         show this help

A run passes when every scenario it counts (with --requirements: those the revision
requires) passes.

Exit codes: 0 every run passed, 1 a scenario failed, 2 invalid arguments, 3 the server or
the suite could not be started.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one server, got: ${args.positionals.join(' ')}.`);
    const labels = Array.isArray(args.values.run) ? args.values.run : ['2025-11-25'];
    const runs = labels.map((label) => {
      const run = CONFORMANCE_RUNS.find((r) => r.label === label);
      if (!run) throw new UsageError(`Unknown --run '${label}'. Use one of: ${CONFORMANCE_RUNS.map((r) => r.label).join(', ')}.`);
      return run;
    });
    const scenario = typeof args.values.scenario === 'string' ? args.values.scenario : undefined;
    const verbose = booleanOption(args, 'verbose');
    const serverArg = args.positionals[0];
    const isUrl = serverArg !== undefined && /^https?:\/\//i.test(serverArg);
    const entry = isUrl ? undefined : resolveEntry(io.cwd, serverArg, args.rest);
    const suite = installConformanceSuite(conformanceDir(io.env), io);

    const server = entry ? await startHttpServer(entry, verbose ? io.stderr : undefined) : undefined;
    const url = server?.url ?? serverArg!;
    try {
      let ok = true;
      for (const run of runs) ok = (await runSuite(suite, run, url, scenario, verbose, io)) && ok;
      return ok ? ExitCode.Ok : ExitCode.Failure;
    } finally {
      await server?.stop();
    }
  },
};

async function runSuite(suite: InstalledSuite, run: ConformanceRun, url: string, scenario: string | undefined, verbose: boolean, io: Io): Promise<boolean> {
  println(io.stderr, io.err.dim(`conformance ${run.label}: ${run.args.join(' ')}${scenario ? ` --scenario ${scenario}` : ''} against ${url}`));
  const out = mkdtempSync(join(tmpdir(), 'toolwright-conformance-'));
  try {
    const args = [suite.entry(run), 'server', '--url', url, ...(scenario ? ['--scenario', scenario] : run.args), '-o', out];
    await new Promise<void>((resolve, reject) => {
      const child = spawn(suite.node, args, { stdio: ['ignore', verbose ? 'inherit' : 'ignore', verbose ? 'inherit' : 'ignore'] });
      child.once('error', reject);
      child.once('exit', () => resolve());
    });
    const requirements = run.requirements && !scenario ? join(suite.modules, ...run.pkg.split('/'), 'requirements', `${run.requirements}.yaml`) : undefined;
    const { passed, failed, missing } = judgeConformance(out, requirements);
    const total = passed.length + failed.length + missing.length;
    const failing = [...failed, ...missing];
    println(io.stdout, `${run.label}: ${passed.length}/${count(total, 'scenario')} passed${failing.length > 0 ? `; failing: ${failing.join(', ')}` : ''}`);
    return total > 0 && failing.length === 0;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
