#!/usr/bin/env node
// How a soak judges memory: after a warm-up (the first half of the load), does a series
// (RSS, heap used after a full GC) still rise? The slope is the Theil-Sen estimate (the median
// of the slopes between every two samples), which a few outliers (a GC that ran late, a burst of
// hostile bodies in flight) cannot tilt, unlike a least-squares line or two quarter medians.
// A series fails when that slope, carried over the judged window, adds more than the larger of
// `absoluteMiB` and `ratio` of the series' median in that window: a longer run judges a longer
// window and so catches a slower leak.
// Memory holds the live sessions' state (heap: about 80 KiB each in the soak), and how many are
// live follows the throughput, which on a shared machine changes with whatever else runs. So
// where samples carry `sessions` (the HTTP server's), a series fails only when what the
// sessions do not explain grows too: the memory per session is estimated (Theil-Sen of the
// series against sessions), taken out, and the rest judged by the same rule. Sessions that are
// never closed would hide there, so their number is judged as well: it fails when it rises over
// the window by more than 100, or by half its median when that is more.
//
// As a script it judges a memory log written by `SOAK_MEMORY_LOG=file node bench/soak.js`
// (one JSON line per sample: t, rss, heapUsed, ... in MiB) and prints the per-minute curve:
//   node bench/memoryTrend.js /tmp/soak-memory.jsonl [loadEndMs]
'use strict';

/** The rules the soak applies; `field` names a sample's property, in MiB. */
const RULES = {
  heapUsed: { absoluteMiB: 4, ratio: 0.1 },
  rss: { absoluteMiB: 16, ratio: 0.1 },
  sessions: { absoluteMiB: 100, ratio: 0.5 },
};

const median = (xs) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The Theil-Sen slope of points {x, y}: the median of the pairwise slopes (y per x). */
function theilSen(points) {
  const slopes = [];
  // Sampling every pair of up to 400 points is 80k slopes: thin longer series evenly.
  const step = Math.max(1, Math.ceil(points.length / 400));
  const thin = points.filter((_, i) => i % step === 0);
  for (let i = 0; i < thin.length; i++) for (let j = i + 1; j < thin.length; j++) if (thin[j].x !== thin[i].x) slopes.push((thin[j].y - thin[i].y) / (thin[j].x - thin[i].x));
  return slopes.length ? median(slopes) : 0;
}

/**
 * Judges `field` of `samples` ({t: ms, [field]: MiB}) taken between `startMs` and `endMs`:
 * the first half is warm-up, the second half is judged.
 */
function trend(samples, field, startMs, endMs, rule = RULES[field]) {
  const from = startMs + (endMs - startMs) / 2;
  const window = samples.filter((s) => s.t >= from && s.t <= endMs && typeof s[field] === 'number');
  if (window.length < 8) return { field, samples: window.length, grew: false, note: 'too few samples to judge' };
  const minutes = (endMs - from) / 60_000;
  const slope = theilSen(window.map((s) => ({ x: (s.t - from) / 60_000, y: s[field] }))); // MiB per minute
  const level = median(window.map((s) => s[field]));
  const rise = slope * minutes;
  const allowed = Math.max(rule.absoluteMiB, rule.ratio * level);
  const round = (n) => Math.round(n * 100) / 100;
  const verdict = {
    field,
    samples: window.length,
    judgedMinutes: round(minutes),
    medianMiB: round(level),
    slopeMiBPerMinute: round(slope),
    riseMiB: round(rise),
    allowedMiB: round(allowed),
    grew: rise > allowed,
  };
  if (field === 'sessions' || !window.every((s) => typeof s.sessions === 'number')) return verdict;
  // The heap the live sessions do not explain.
  const perSession = Math.max(0, theilSen(window.map((s) => ({ x: s.sessions, y: s[field] }))));
  const rest = theilSen(window.map((s) => ({ x: (s.t - from) / 60_000, y: s[field] - perSession * s.sessions }))) * minutes;
  return { ...verdict, perSessionKiB: Math.round(perSession * 1024), riseBeyondSessionsMiB: round(rest), grew: rise > allowed && rest > allowed };
}

/** One row per minute of the run: the last sample of each minute. */
function curve(samples, startMs) {
  const rows = new Map();
  for (const s of samples) rows.set(Math.floor((s.t - startMs) / 60_000) + 1, s);
  return [...rows].map(([minute, s]) => ({ minute, rssMiB: Math.round(s.rss), heapUsedMiB: s.heapUsed === undefined ? undefined : Math.round(s.heapUsed * 10) / 10, sessions: s.sessions }));
}

module.exports = { RULES, trend, curve, theilSen };

if (require.main === module) {
  const [file, loadEnd] = process.argv.slice(2);
  if (!file) {
    console.error('Usage: node bench/memoryTrend.js <memory log (JSON lines)> [load end, ms since epoch]');
    process.exit(2);
  }
  const samples = require('node:fs')
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const start = samples[0].t;
  const end = Number(loadEnd ?? samples.at(-1).t);
  const rows = curve(samples, start);
  console.log('minute  RSS MiB  heapUsed MiB  sessions');
  for (const r of rows) console.log(`${String(r.minute).padStart(6)}  ${String(r.rssMiB).padStart(7)}  ${String(r.heapUsedMiB).padStart(12)}  ${String(r.sessions ?? '').padStart(8)}`);
  const verdicts = Object.keys(RULES).map((field) => trend(samples, field, start, end));
  console.log(JSON.stringify(verdicts, null, 2));
  process.exit(verdicts.some((v) => v.grew) ? 1 : 0);
}
