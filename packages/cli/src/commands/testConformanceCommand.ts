import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveEntry } from '../client/resolveEntry';
import { warnIfStale } from '../client/staleBuild';
import { startHttpServer } from '../client/startHttpServer';
import type { Command, ParsedArgs } from '../cli/Command';
import { count } from '../cli/count';
import { ExitCode } from '../cli/ExitCode';
import { println, type Io } from '../cli/Io';
import { booleanOption } from '../cli/parseCommandArgs';
import { UsageError } from '../cli/UsageError';
import { withClient } from '../client/withClient';
import { CONFORMANCE_PACKAGES, CONFORMANCE_RUNS, FIXTURE_PROBE_TOOL, unmetNeeds, type ConformanceRun, type ScenarioNeed, type ServerOffer } from '../conformance/conformanceSuite';
import { conformanceDir, installConformanceSuite, type InstalledSuite } from '../conformance/installConformanceSuite';
import { judgeConformance } from '../conformance/judgeConformance';
import { didYouMean } from '../cli/didYouMean';

export const testConformanceCommand: Command = {
  name: 'test-conformance',
  serverArgs: true,
  summary: 'Run the official MCP conformance suite against your server',
  options: { run: { type: 'string', multiple: true }, scenario: { type: 'string' }, all: { type: 'boolean' }, verbose: { type: 'boolean' } },
  help: `Usage: toolwright test-conformance [server] [--run <label>]... [--scenario <name>] [--all] [-- <server args>]

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
      --scenario <name>  only this scenario (counted whatever it needs)
      --all          count every scenario, also those that need what the server lacks
      --verbose      show the suite's and the server's output
  -h, --help         show this help

A run passes when every scenario it counts (with --requirements: those the revision
requires) passes. It counts the scenarios that apply to this server: many call the suite's
own fixture tools, resources and prompts (test_simple_text, test://static-text ...), and a
few list resources or prompts. Those are run, listed as "not counted" with what they need,
and counted once the server serves the fixtures (a '${FIXTURE_PROBE_TOOL}' tool) or has
resources and prompts, or with --all.

Exit codes: 0 every run passed, 1 a scenario failed, 2 invalid arguments, 3 the server or
the suite could not be started.`,

  async run(args: ParsedArgs, io: Io): Promise<number> {
    if (args.positionals.length > 1) throw new UsageError(`Expected at most one server, got: ${args.positionals.join(' ')}.`);
    const labels = Array.isArray(args.values.run) ? args.values.run : ['2025-11-25'];
    const runs = labels.map((label) => {
      const run = CONFORMANCE_RUNS.find((r) => r.label === label);
      if (!run)
        throw new UsageError(
          `Unknown --run '${label}'. Use one of: ${CONFORMANCE_RUNS.map((r) => r.label).join(', ')}.${didYouMean(
            label,
            CONFORMANCE_RUNS.map((r) => r.label),
          )}`,
        );
      return run;
    });
    const scenario = typeof args.values.scenario === 'string' ? args.values.scenario : undefined;
    const verbose = booleanOption(args, 'verbose');
    const serverArg = args.positionals[0];
    const isUrl = serverArg !== undefined && /^https?:\/\//i.test(serverArg);
    const entry = isUrl ? undefined : resolveEntry(io.cwd, serverArg, args.rest);
    if (entry) warnIfStale(entry, io);
    const suite = installConformanceSuite(conformanceDir(io.env), io);

    const server = entry ? await startHttpServer(entry, verbose ? io.stderr : undefined) : undefined;
    const url = server?.url ?? serverArg!;
    try {
      // One named scenario, or --all, counts whatever it needs.
      const offer = scenario || booleanOption(args, 'all') ? EVERYTHING : await serverOffer(url, io);
      let ok = true;
      const skipped = new Set<ScenarioNeed>();
      for (const run of runs) ok = (await runSuite(suite, run, url, scenario, offer, skipped, verbose, io)) && ok;
      if (skipped.has('fixtures')) {
        println(
          io.stderr,
          io.err.dim(
            `Scenarios marked "needs the conformance fixtures" call the suite's own test tools, resources and prompts (${FIXTURE_PROBE_TOOL}, test://static-text ...), which only a server written for the suite has. ` +
              'To run them, serve the fixture classes of the Toolwright repository (examples/conformance/src) from a server of your own and run this command against it; --all counts them here.',
          ),
        );
      }
      return ok ? ExitCode.Ok : ExitCode.Failure;
    } finally {
      await server?.stop();
    }
  },
};

const EVERYTHING: ServerOffer = { fixtures: true, resources: true, prompts: true };

/** What the server offers that decides which scenarios apply: asked over the 2025 handshake. */
async function serverOffer(url: string, io: Io): Promise<ServerOffer> {
  const target = { kind: 'http' as const, url: new URL(url), headers: {}, shown: url };
  return withClient(target, io, { protocol: 'legacy', what: 'Listing what the server offers' }, async (client) => {
    const capabilities = client.getServerCapabilities() ?? {};
    const tools = capabilities.tools ? (await client.listTools()).tools : [];
    return { fixtures: tools.some((t) => t.name === FIXTURE_PROBE_TOOL), resources: capabilities.resources !== undefined, prompts: capabilities.prompts !== undefined };
  });
}

const NEED_LABELS: Readonly<Record<ScenarioNeed, string>> = { fixtures: 'needs the conformance fixtures', resources: 'needs resources', prompts: 'needs prompts' };

async function runSuite(
  suite: InstalledSuite,
  run: ConformanceRun,
  url: string,
  scenario: string | undefined,
  offer: ServerOffer,
  skipped: Set<ScenarioNeed>,
  verbose: boolean,
  io: Io,
): Promise<boolean> {
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
    const verdict = judgeConformance(out, requirements);
    // Scenarios that need what the server lacks are run but not counted, grouped by what they need.
    const uncounted = new Map<string, string[]>();
    const counts = (name: string) => {
      const unmet = unmetNeeds(name, offer);
      if (unmet.length === 0) return true;
      for (const need of unmet) skipped.add(need);
      const label = unmet.map((need) => NEED_LABELS[need]).join(', ');
      uncounted.set(label, [...(uncounted.get(label) ?? []), name]);
      return false;
    };
    const passed = verdict.passed.filter(counts);
    const failing = [...verdict.failed, ...verdict.missing].filter(counts);
    const total = passed.length + failing.length;
    const applying = uncounted.size > 0 ? ' that apply to this server' : '';
    println(io.stdout, `${run.label}: ${passed.length}/${count(total, 'scenario')}${applying} passed${failing.length > 0 ? `; failing: ${failing.join(', ')}` : ''}`);
    for (const [label, names] of uncounted) println(io.stdout, `  not counted (${label}, ${names.length}): ${names.sort().join(', ')}`);
    return total > 0 && failing.length === 0;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
