'use strict';
// What the start and memory benches share (cold-start-cpu, start-gc, start-allocations,
// stdio-memory): their command line, `--name value` flags, then optionally `--` and the server
// scripts to compare (without them, raw v2, bench/raw-server-v2.js, and the weather example); the
// first request of an era; the version of the Node they run the servers on; medians.
const { spawn } = require('node:child_process');

/** `flag(name, fallback)` reads `--name value`, `has(name)` a bare `--name`; `node` is `--node` or this Node. */
function serverArgs(argv = process.argv.slice(2)) {
  const sep = argv.indexOf('--');
  const flags = sep < 0 ? argv : argv.slice(0, sep);
  const flag = (name, fallback) => {
    const i = flags.indexOf(`--${name}`);
    return i < 0 ? fallback : flags[i + 1];
  };
  return {
    flag,
    has: (name) => flags.includes(`--${name}`),
    node: flag('node', process.execPath),
    scripts: sep < 0 ? ['bench/raw-server-v2.js', 'examples/weather/dist/server.js'] : argv.slice(sep + 1),
  };
}

/** The request a start answers first: `initialize` (2025-11-25) or `server/discover` (2026-07-28). */
function firstRequest(era, clientName) {
  const clientInfo = { name: clientName, version: '1' };
  return era === 'legacy'
    ? { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo } }
    : {
        jsonrpc: '2.0',
        id: 0,
        method: 'server/discover',
        params: {
          _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': clientInfo },
        },
      };
}

/** `node --version` of the given binary. */
function nodeVersion(node) {
  return new Promise((resolve) => {
    const c = spawn(node, ['--version']);
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.on('exit', () => resolve(out.trim()));
  });
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * One start: runs `command` (a server start, or a meter wrapping one) in ROOT with the compile
 * cache in `cacheDir` (unless TOOLWRIGHT_COMPILE_CACHE=off says to start without one), sends `first` and end of input, and resolves with what it printed once it
 * exits, after checking that it answered without an error.
 */
function startOnce(command, args, { root, cacheDir, first, label }) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, TOOLWRIGHT_COMPILE_CACHE: process.env.TOOLWRIGHT_COMPILE_CACHE === 'off' ? 'off' : cacheDir },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(`${JSON.stringify(first)}\n`);
    child.on('error', reject);
    child.on('exit', (code) => {
      const answer = stdout.split('\n').find((line) => line.startsWith('{'));
      if (code !== 0 || !answer || 'error' in JSON.parse(answer)) reject(new Error(`${label} (exit ${code}):\n${stdout.slice(-800)}\n${stderr.slice(-1500)}`));
      else resolve({ stdout, stderr });
    });
  });
}

module.exports = { serverArgs, firstRequest, nodeVersion, median, startOnce };
