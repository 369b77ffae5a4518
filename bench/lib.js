'use strict';
// Shared helpers for bench/run.js and bench/check-same-tools.js.

const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { nodeBinary } = require('../scripts/nodeVersions.js');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');

const ROOT = path.resolve(__dirname, '..');
const DEFAULT_RAW_CMD = 'node bench/raw-server.js';
const DEFAULT_RAW_V2_CMD = 'node bench/raw-server-v2.js';
// BENCH_TELEMETRY=1: with a tracer and a meter provider registered (bench/telemetry.js), so every call is traced.
const DEFAULT_TOOLWRIGHT_CMD = process.env.BENCH_TELEMETRY === '1' ? 'node -r ./bench/telemetry.js examples/weather/dist/server.js' : 'node examples/weather/dist/server.js';

/** The protocol era the harness speaks: `legacy` (2025-11-25, initialize) or `modern` (2026-07-28). */
const ERA = process.env.BENCH_ERA || 'legacy';
if (ERA !== 'legacy' && ERA !== 'modern') throw new Error(`BENCH_ERA must be legacy or modern, got ${JSON.stringify(ERA)}`);

/** Split a command line on whitespace, honouring simple '…' and "…" quoting. */
function splitCommand(line) {
  const parts = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let m;
  while ((m = re.exec(line)) !== null) parts.push(m[1] ?? m[2] ?? m[3]);
  if (parts.length === 0) throw new Error(`empty command: ${JSON.stringify(line)}`);
  return parts;
}

let serverNodePath;
/**
 * The node binary the servers run on: this process's, or with BENCH_NODE=<major> (e.g. 24)
 * that version, from the pinned ones in scripts/node-versions (installed on first use).
 */
function serverNode() {
  if (serverNodePath === undefined) {
    try {
      serverNodePath = process.env.BENCH_NODE ? nodeBinary(process.env.BENCH_NODE) : process.execPath;
    } catch (err) {
      throw harnessError(`BENCH_NODE=${process.env.BENCH_NODE}: ${err.message}`);
    }
  }
  return serverNodePath;
}

/** The version of serverNode(), e.g. 'v24.21.0'. */
function serverNodeVersion() {
  return serverNode() === process.execPath ? process.version : execFileSync(serverNode(), ['-p', 'process.version'], { encoding: 'utf8' }).trim();
}

/**
 * Resolve a target command. `node` is replaced by serverNode() so both targets run on the
 * same runtime. Relative paths resolve from the repo root.
 */
function makeTarget(label, line, envVar) {
  const [cmd, ...args] = splitCommand(line);
  const command = cmd === 'node' ? serverNode() : cmd;
  return { label, line, command, args, envVar };
}

/**
 * The baselines, then Toolwright (always last). The v1 server speaks only the legacy era,
 * so a modern run compares with the v2 server alone.
 */
function targetsFromEnv() {
  return [
    ...(ERA === 'legacy' ? [makeTarget('raw v1', process.env.BENCH_RAW_CMD || DEFAULT_RAW_CMD, 'BENCH_RAW_CMD')] : []),
    makeTarget('raw v2', process.env.BENCH_RAW_V2_CMD || DEFAULT_RAW_V2_CMD, 'BENCH_RAW_V2_CMD'),
    makeTarget('toolwright', process.env.BENCH_TOOLWRIGHT_CMD || DEFAULT_TOOLWRIGHT_CMD, 'BENCH_TOOLWRIGHT_CMD'),
  ];
}

/** For `node script.js` targets, fail early with a clear message if the script is missing. */
function checkTargetExists(t) {
  if (t.command !== serverNode()) return null;
  let script = null;
  for (const a of t.args) {
    if (['-e', '--eval', '-p', '--print'].includes(a)) return null;
    if (!a.startsWith('-')) {
      script = a;
      break;
    }
  }
  if (!script || !/\.[cm]?js$/.test(script)) return null;
  const abs = path.resolve(ROOT, script);
  if (fs.existsSync(abs)) return null;
  return `${t.label}: ${abs} does not exist (build it, or override with ${t.envVar})`;
}

/** An expected failure: reported as a one-line message, without a stack. */
function harnessError(message) {
  const err = new Error(message);
  err.harness = true;
  return err;
}

/**
 * A client for the run's era: the SDK v1 `Client` for the legacy era (the clients deployed
 * today), the SDK v2 `Client` pinned to 2026-07-28 for the modern one.
 */
function newClient(t, name) {
  if (ERA === 'legacy') {
    const transport = new StdioClientTransport({ command: t.command, args: t.args, cwd: ROOT, env: { ...process.env }, stderr: 'inherit' });
    return { client: new Client({ name, version: '1.0.0' }), transport };
  }
  const v2 = require('@modelcontextprotocol/client');
  const { StdioClientTransport: StdioClientTransportV2 } = require('@modelcontextprotocol/client/stdio');
  const transport = new StdioClientTransportV2({ command: t.command, args: t.args, cwd: ROOT, env: { ...process.env }, stderr: 'inherit' });
  return { client: new v2.Client({ name, version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } }), transport };
}

/** Spawn the target over stdio and complete the opening exchange (initialize, or server/discover). */
async function connect(t, name = 'toolwright-bench') {
  const { client, transport } = newClient(t, name);
  const t0 = process.hrtime.bigint();
  try {
    await client.connect(transport);
    // A client pinned to 2026-07-28 opens without a handshake: time the first answer instead.
    if (ERA === 'modern') await client.discover();
  } catch (err) {
    await transport.close().catch(() => {});
    throw harnessError(`${t.label} (${t.line}) failed to initialize: ${err && err.message ? err.message : err}`);
  }
  const initNs = Number(process.hrtime.bigint() - t0);
  return { client, transport, pid: transport.pid, initNs };
}

/** Close the client; reports how long the child took to go away. */
async function disconnect(conn) {
  const t0 = process.hrtime.bigint();
  await conn.client.close();
  return Number(process.hrtime.bigint() - t0) / 1e6;
}

let clkTck;
function clockTicks() {
  if (clkTck === undefined) {
    try {
      clkTck = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** utime+stime of a process in microseconds (Linux /proc), or null. */
function procCpuUs(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state); utime = field 14, stime = field 15
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1e6) / clockTicks();
  } catch {
    return null;
  }
}

/** { hwmKb, rssKb } from /proc/<pid>/status, or nulls off Linux. */
function procMem(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const get = (k) => {
      const m = new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(s);
      return m ? Number(m[1]) : null;
    };
    return { hwmKb: get('VmHWM'), rssKb: get('VmRSS') };
  } catch {
    return { hwmKb: null, rssKb: null };
  }
}

module.exports = {
  ROOT,
  ERA,
  DEFAULT_RAW_CMD,
  DEFAULT_RAW_V2_CMD,
  DEFAULT_TOOLWRIGHT_CMD,
  splitCommand,
  makeTarget,
  serverNode,
  serverNodeVersion,
  targetsFromEnv,
  checkTargetExists,
  harnessError,
  connect,
  disconnect,
  procCpuUs,
  procMem,
};
