#!/usr/bin/env node
'use strict';
// Benchmark: the Toolwright weather example vs the same server written by hand on the
// SDK v1 (bench/raw-server.js) and on the SDK v2 (bench/raw-server-v2.js), all as stdio
// child processes driven by an SDK Client (v1 for the legacy era, v2 for BENCH_ERA=modern).
// All targets run in the same invocation, interleaved round by round; ratios are
// Toolwright / each hand-written server. See bench/README.md for the env vars and the output.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ERA, targetsFromEnv, checkTargetExists, harnessError, connect, disconnect, procCpuUs, procMem } = require('./lib.js');

const now = () => process.hrtime.bigint();

function envInt(name, dflt) {
  const v = process.env[name];
  if (v === undefined || v === '') return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(v)}`);
  return Math.floor(n);
}

const cfg = {
  rounds: Math.max(1, envInt('BENCH_ROUNDS', 5)),
  durationMs: envInt('BENCH_DURATION_MS', 1500),
  calls: envInt('BENCH_CALLS', 0), // >0: fixed number of calls per segment instead of a duration
  slices: Math.max(1, envInt('BENCH_SLICES', 6)), // interleaved slices per server per scenario per round
  // warm-up by call count, not time, so a slower server gets the same JIT warm-up
  warmupCalls: envInt('BENCH_WARMUP_CALLS', 3000), // per server, per scenario, per round
  coldStarts: Math.max(1, envInt('BENCH_COLD_STARTS', 15)),
  concurrency: (process.env.BENCH_CONCURRENCY || '1,32').split(',').map((s) => Math.max(1, Number(s.trim()) | 0)),
  assert: process.env.BENCH_ASSERT === '1',
  era: ERA,
  out: path.resolve(__dirname, '..', process.env.BENCH_OUT || 'bench/results/latest.json'),
};

// Issue 11: nothing slower than a hand-written server on either SDK.
const TARGETS = { throughput: 1.0, coldStart: 1.0, rss: 1.1 };

const TOOL_CALLS = {
  get_weather: { location: 'Tokyo' },
  search_notes: { query: 'tokyo forecast', filters: { tags: ['weather'], minScore: 0.5 }, limit: 10 },
};

const SCENARIOS = [];
for (const tool of Object.keys(TOOL_CALLS)) {
  for (const c of cfg.concurrency) SCENARIOS.push({ id: `${tool}@c${c}`, tool, concurrency: c });
}

// ---------- statistics ----------

function median(xs) {
  const v = xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return null;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/** Nearest-rank percentile of an already sorted array. */
function pct(sorted, q) {
  if (sorted.length === 0) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

function quantile(xs, q) {
  return pct(
    xs.filter((x) => x !== null && Number.isFinite(x)).sort((a, b) => a - b),
    q,
  );
}

const ratio = (tw, raw) => (tw === null || raw === null || raw === 0 ? null : tw / raw);

// ---------- measurements ----------

/**
 * Run one load slice of `tool` at `concurrency` against an open connection.
 * Stops after `durationMs`, or after `calls` calls if calls > 0.
 * Returns raw measurements; see aggregate().
 */
async function runSlice(conn, tool, concurrency, durationMs, calls) {
  const params = { name: tool, arguments: TOOL_CALLS[tool] };
  const lat = [];
  let issued = 0;
  let isErrors = 0;
  let failures = 0;
  let firstFailure = null;
  const cpu0 = procCpuUs(conn.pid);
  const ccpu0 = process.cpuUsage();
  const t0 = now();
  const deadline = t0 + BigInt(durationMs) * 1000000n;

  async function worker() {
    for (;;) {
      if (calls > 0 ? issued >= calls : now() >= deadline) return;
      issued++;
      const s = now();
      try {
        const r = await conn.client.callTool(params);
        if (r.isError) isErrors++;
        lat.push(Number(now() - s));
      } catch (err) {
        // failed calls are not counted; any failure invalidates the run (exit 2)
        failures++;
        firstFailure ??= String(err && err.message ? err.message : err);
      }
    }
  }

  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsedNs = Number(now() - t0);
  const cpu1 = procCpuUs(conn.pid);
  const ccpu = process.cpuUsage(ccpu0);
  return {
    lat,
    elapsedNs,
    serverCpuUs: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
    clientCpuUs: ccpu.user + ccpu.system,
    isErrors,
    failures,
    firstFailure,
  };
}

/** Pool the slices one server ran for one scenario in one round. */
function aggregate(slices) {
  const lat = slices.flatMap((x) => x.lat).sort((a, b) => a - b);
  const n = lat.length;
  const elapsedNs = slices.reduce((a, x) => a + x.elapsedNs, 0);
  const serverCpu = slices.some((x) => x.serverCpuUs === null) ? null : slices.reduce((a, x) => a + x.serverCpuUs, 0);
  const clientCpu = slices.reduce((a, x) => a + x.clientCpuUs, 0);
  return {
    calls: n,
    slices: slices.length,
    elapsedMs: elapsedNs / 1e6,
    throughput: n / (elapsedNs / 1e9),
    p50Ms: n ? pct(lat, 0.5) / 1e6 : null,
    p99Ms: n ? pct(lat, 0.99) / 1e6 : null,
    serverCpuUsPerCall: serverCpu === null || n === 0 ? null : serverCpu / n,
    clientCpuUsPerCall: n === 0 ? null : clientCpu / n,
    clientCpuPct: (clientCpu / (elapsedNs / 1e3)) * 100,
    sliceThroughput: slices.map((x) => Math.round(x.lat.length / (x.elapsedNs / 1e9))),
    isErrors: slices.reduce((a, x) => a + x.isErrors, 0),
    failures: slices.reduce((a, x) => a + x.failures, 0),
    firstFailure: slices.map((x) => x.firstFailure).find((x) => x) || null,
  };
}

/** One call per benchmarked tool; the harness refuses to compare a broken server. */
async function sanityCheck(target) {
  const conn = await connect(target, 'toolwright-bench-sanity');
  const out = {};
  try {
    for (const [tool, args] of Object.entries(TOOL_CALLS)) {
      const r = await conn.client.callTool({ name: tool, arguments: args });
      const text = r.content && r.content[0] && r.content[0].type === 'text' ? r.content[0].text : null;
      if (r.isError || text === null) {
        throw harnessError(`${target.label}: ${tool} returned ${JSON.stringify(r)}`);
      }
      out[tool] = text;
    }
    const w = JSON.parse(out.get_weather);
    const expected = { location: 'Tokyo', temperature: 22, conditions: 'Partly cloudy', unit: 'celsius' };
    for (const [k, v] of Object.entries(expected)) {
      if (w[k] !== v) throw harnessError(`${target.label}: get_weather.${k} = ${JSON.stringify(w[k])}, expected ${JSON.stringify(v)}`);
    }
    if (!Array.isArray(JSON.parse(out.search_notes))) {
      throw harnessError(`${target.label}: search_notes did not return a JSON array: ${out.search_notes}`);
    }
  } finally {
    await disconnect(conn);
  }
  return out;
}

/** Target indices in the order of step `i`: rotated, so no target always goes first. */
const rotation = (n, i) => Array.from({ length: n }, (_, k) => (i + k) % n);

async function coldStarts(targets, log) {
  const res = targets.map(() => ({ initMs: [], initCpuMs: [], rssAfterInitKb: [], slowCloses: 0 }));
  for (let i = 0; i < cfg.coldStarts; i++) {
    for (const ti of rotation(targets.length, i)) {
      const conn = await connect(targets[ti], 'toolwright-bench-cold');
      res[ti].initMs.push(conn.initNs / 1e6);
      const cpuUs = procCpuUs(conn.pid);
      res[ti].initCpuMs.push(cpuUs === null ? null : cpuUs / 1000);
      res[ti].rssAfterInitKb.push(procMem(conn.pid).rssKb);
      const closeMs = await disconnect(conn);
      if (closeMs > 1000) res[ti].slowCloses++;
    }
    log(`  cold start ${i + 1}/${cfg.coldStarts}: ${targets.map((t, ti) => `${t.label} ${res[ti].initMs[i].toFixed(1)} ms`).join(', ')}`);
  }
  return res;
}

async function loadRound(targets, round, log) {
  // spawn all, rotating which goes first
  const order = rotation(targets.length, round);
  const conns = [];
  for (const ti of order) conns[ti] = await connect(targets[ti], 'toolwright-bench-load');
  const result = targets.map(() => ({ scenarios: {}, hwmKb: null, rssKb: null }));
  try {
    // warm-up: every scenario, BENCH_WARMUP_CALLS calls each
    if (cfg.warmupCalls > 0) {
      for (const ti of order) {
        for (const sc of SCENARIOS) await runSlice(conns[ti], sc.tool, sc.concurrency, 0, cfg.warmupCalls);
      }
    }
    // Each scenario: BENCH_SLICES slices per server, in the order A B C, then C B A, and so on
    // (A = whichever starts this round/scenario), so drift hits every server equally.
    const sliceMs = Math.max(1, Math.round(cfg.durationMs / cfg.slices));
    const sliceCalls = cfg.calls > 0 ? Math.max(1, Math.round(cfg.calls / cfg.slices)) : 0;
    for (const [si, sc] of SCENARIOS.entries()) {
      const first = rotation(targets.length, round + si);
      const slices = targets.map(() => []);
      for (let k = 0; k < cfg.slices; k++) {
        for (const ti of k % 2 === 0 ? first : [...first].reverse()) {
          slices[ti].push(await runSlice(conns[ti], sc.tool, sc.concurrency, sliceMs, sliceCalls));
        }
      }
      targets.forEach((t, ti) => {
        const seg = aggregate(slices[ti]);
        result[ti].scenarios[sc.id] = seg;
        if (seg.failures || seg.isErrors) {
          log(`  WARNING ${t.label} ${sc.id}: ${seg.failures} failed calls, ${seg.isErrors} isError results` + (seg.firstFailure ? ` (first: ${seg.firstFailure})` : ''));
        }
      });
      const parts = targets.map((t, ti) => `${t.label} ${Math.round(result[ti].scenarios[sc.id].throughput)}/s`);
      log(`  round ${round + 1}/${cfg.rounds} ${sc.id.padEnd(18)} ${parts.join(', ')}`);
    }
    targets.forEach((t, ti) => Object.assign(result[ti], procMem(conns[ti].pid)));
  } finally {
    for (const ti of order) await disconnect(conns[ti]);
  }
  return result;
}

// ---------- report ----------

function fmtNum(v, digits = 0) {
  if (v === null || v === undefined) return 'n/a';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

/**
 * Rough noise estimate for a throughput ratio: 2 standard errors of the mean
 * log ratio over all slice pairs (baseline slice k vs toolwright slice k),
 * as a relative +-fraction.
 */
function sliceNoise(roundPairs) {
  const logs = roundPairs.flatMap(([raw, tw]) => raw.map((v, i) => Math.log(tw[i] / v))).filter(Number.isFinite);
  if (logs.length < 3) return null;
  const mean = logs.reduce((a, b) => a + b, 0) / logs.length;
  const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / (logs.length - 1));
  return Math.expm1((2 * sd) / Math.sqrt(logs.length));
}

/**
 * One row per metric: every target's median, then per baseline the ratio toolwright/baseline
 * (the median of the paired per-round or per-spawn ratios) and its range.
 * Toolwright is the last target; the others are the baselines.
 */
function summarise(targets, cold, rounds) {
  const tw = targets.length - 1;
  const baselines = targets.slice(0, tw).map((t, bi) => bi);
  const row = (metric, unit, valuesOf, digits, extra = {}) => {
    const values = targets.map((t, ti) => valuesOf(ti));
    const lo = extra.spreadKind === 'IQR' ? 0.25 : 0;
    const hi = extra.spreadKind === 'IQR' ? 0.75 : 1;
    return {
      metric,
      unit,
      medians: values.map(median),
      vs: baselines.map((bi) => {
        const rs = values[bi].map((r, i) => ratio(values[tw][i], r));
        return { baseline: targets[bi].label, ratio: median(rs), spread: [quantile(rs, lo), quantile(rs, hi)] };
      }),
      digits,
      ...extra,
    };
  };
  const gate = (r, op, limit) => {
    r.target = `${op} ${limit}`;
    r.gated = true;
    for (const v of r.vs) v.pass = v.ratio === null ? null : op === '>=' ? v.ratio >= limit : v.ratio <= limit;
    return r;
  };
  const rows = [];

  for (const sc of SCENARIOS) {
    const get = (k) => (ti) => rounds.map((r) => r[ti].scenarios[sc.id][k]);
    const tp = gate(row(`throughput ${sc.id}`, 'calls/s', get('throughput'), 0), '>=', TARGETS.throughput);
    for (const [bi, v] of tp.vs.entries()) {
      v.noise = sliceNoise(rounds.map((r) => [r[bi].scenarios[sc.id].sliceThroughput, r[tw].scenarios[sc.id].sliceThroughput]));
    }
    rows.push(tp);
    rows.push(row('  p50 latency', 'ms', get('p50Ms'), 3));
    rows.push(row('  p99 latency', 'ms', get('p99Ms'), 3));
    rows.push(row('  server CPU/call', 'µs', get('serverCpuUsPerCall'), 1));
    rows.push({ ...row('  client CPU busy', '%', get('clientCpuPct'), 0), vs: [] });
  }

  const coldOf =
    (k, f = (x) => x) =>
    (ti) =>
      cold[ti][k].map((x) => (x === null ? null : f(x)));
  rows.push(gate(row(`cold start (median of ${cfg.coldStarts})`, 'ms', coldOf('initMs'), 1, { spreadKind: 'IQR' }), '<=', TARGETS.coldStart));
  // The server's own CPU time up to its initialize response: steadier than wall time on a busy machine.
  rows.push(row('  CPU until initialized', 'ms', coldOf('initCpuMs'), 1, { spreadKind: 'IQR' }));
  const mb = (kb) => (kb === null ? null : kb / 1024);
  rows.push(row('  RSS after initialize', 'MB', coldOf('rssAfterInitKb', mb), 1, { spreadKind: 'IQR' }));
  rows.push(
    gate(
      row('peak RSS after load (VmHWM)', 'MB', (ti) => rounds.map((r) => mb(r[ti].hwmKb)), 1),
      '<=',
      TARGETS.rss,
    ),
  );
  return rows;
}

/** PASS / MISS against one baseline; a throughput miss that the noise estimate could explain is flagged. */
function verdict(v) {
  if (v.pass === null || v.pass === undefined) return 'n/a';
  if (v.pass) return 'PASS';
  if (v.noise && v.ratio * (1 + v.noise) >= TARGETS.throughput) return 'MISS (within noise)';
  return 'MISS';
}

function printTable(targets, rows) {
  const baselines = targets.slice(0, -1).map((t) => t.label);
  const head = ['metric', 'unit', ...targets.map((t) => t.label), ...baselines.flatMap((b) => [`vs ${b}`, 'noise', 'range']), 'target', 'result'];
  const range = (v, r) => (v.spread && v.spread[0] !== null ? `${v.spread[0].toFixed(3)}..${v.spread[1].toFixed(3)}${r.spreadKind ? ` (${r.spreadKind})` : ''}` : '');
  const lines = rows.map((r) => [
    r.metric,
    r.unit,
    ...r.medians.map((m) => fmtNum(m, r.digits)),
    ...baselines.flatMap((b, bi) => {
      const v = r.vs[bi];
      if (!v) return ['', '', ''];
      return [v.ratio === null ? '' : v.ratio.toFixed(3), v.noise === null || v.noise === undefined ? '' : `±${(v.noise * 100).toFixed(1)}%`, range(v, r)];
    }),
    r.target || '',
    r.gated ? r.vs.map(verdict).join(' / ') : '',
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const numeric = (i) => i >= 2 && i < head.length - 2 && !head[i].startsWith('range');
  const fmt = (cells) =>
    cells
      .map((c, i) => (numeric(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
      .join('  ')
      .trimEnd();
  console.log(fmt(head));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const l of lines) console.log(fmt(l));
}

// ---------- main ----------

async function main() {
  const targets = targetsFromEnv();
  for (const t of targets) {
    const missing = checkTargetExists(t);
    if (missing) throw harnessError(missing);
  }
  const log = (s) => console.error(s);
  const startedAt = new Date();
  const tStart = now();
  for (const t of targets) console.log(`${`${t.label}:`.padEnd(12)}${t.line}`);
  console.log(
    `era=${cfg.era} rounds=${cfg.rounds} ${cfg.calls ? `calls=${cfg.calls}` : `duration=${cfg.durationMs}ms`} slices=${cfg.slices} warmupCalls=${cfg.warmupCalls} ` +
      `coldStarts=${cfg.coldStarts} concurrency=${cfg.concurrency.join(',')} | node ${process.version}, ` +
      `${os.cpus().length} CPUs, loadavg ${os
        .loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );

  const sanity = [];
  for (const t of targets) sanity.push(await sanityCheck(t));
  for (const tool of Object.keys(TOOL_CALLS)) {
    if (sanity.some((out) => out[tool] !== sanity[0][tool])) {
      console.log(`note: ${tool} output differs between targets (per-call work may differ):`);
      targets.forEach((t, ti) => console.log(`  ${`${t.label}:`.padEnd(12)}${sanity[ti][tool]}`));
    }
  }

  log('cold starts…');
  const cold = await coldStarts(targets, log);
  for (const ti of targets.keys()) {
    if (cold[ti].slowCloses) {
      console.log(`note: ${targets[ti].label} took >1 s to exit after stdin closed in ${cold[ti].slowCloses} of ${cfg.coldStarts} spawns`);
    }
  }

  const rounds = [];
  for (let r = 0; r < cfg.rounds; r++) {
    log(`load round ${r + 1}/${cfg.rounds}…`);
    rounds.push(await loadRound(targets, r, log));
  }

  const rows = summarise(targets, cold, rounds);
  const totalS = Number(now() - tStart) / 1e9;
  console.log('');
  printTable(targets, rows);
  const gated = rows.filter((r) => r.gated).flatMap((r) => r.vs.map((v) => ({ ...v, metric: `${r.metric.trim()} vs ${v.baseline}` })));
  const missed = gated.filter((v) => v.pass === false);
  console.log('');
  console.log(
    `${gated.length - missed.length}/${gated.length} targets held` +
      (missed.length ? ` (missed: ${missed.map((v) => v.metric).join('; ')})` : '') +
      ` — total ${totalS.toFixed(1)} s, loadavg now ${os.loadavg()[0].toFixed(2)}`,
  );
  const maxClient = Math.max(...rounds.flatMap((r) => r.flatMap((t) => Object.values(t.scenarios).map((s) => s.clientCpuPct))));
  if (maxClient > 90) {
    console.log(
      `note: the harness client used up to ${maxClient.toFixed(0)}% of a core; at that level it may be the bottleneck ` + 'and throughput ratios understate server differences (see server CPU/call).',
    );
  }

  const report = {
    startedAt: startedAt.toISOString(),
    durationS: totalS,
    config: cfg,
    targetsThresholds: TARGETS,
    machine: { node: process.version, platform: process.platform, cpus: os.cpus().length, cpuModel: os.cpus()[0]?.model, loadavgAtEnd: os.loadavg() },
    targets: targets.map((t) => ({ label: t.label, command: t.line })),
    toolCalls: TOOL_CALLS,
    summary: rows.map(({ digits, ...r }) => ({ ...r, metric: r.metric.trim(), vs: r.vs.map((v) => ({ ...v, result: r.gated ? verdict(v) : undefined })) })),
    allTargetsHeld: missed.length === 0,
    coldStart: targets.map((t, ti) => ({ label: t.label, ...cold[ti] })),
    rounds: rounds.map((r, ri) => ({ round: ri + 1, ...Object.fromEntries(targets.map((t, ti) => [t.label, r[ti]])) })),
  };
  fs.mkdirSync(path.dirname(cfg.out), { recursive: true });
  fs.writeFileSync(cfg.out, JSON.stringify(report, null, 2) + '\n');
  console.log(`results: ${path.relative(process.cwd(), cfg.out) || cfg.out}`);

  const failed = rounds.flatMap((r, ri) =>
    r.flatMap((t, ti) =>
      Object.entries(t.scenarios)
        .filter(([, sc]) => sc.failures > 0)
        .map(([id, sc]) => `round ${ri + 1} ${targets[ti].label} ${id}: ${sc.failures} failed (${sc.firstFailure})`),
    ),
  );
  if (failed.length) throw harnessError(`calls failed during the load, results are not valid:\n  ${failed.join('\n  ')}`);

  return cfg.assert && missed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('bench harness failed:', err && err.harness ? err.message : err && err.stack ? err.stack : err);
    process.exit(2);
  },
);
