'use strict';
// The command line the start and memory benches share (cold-start-cpu, start-gc, start-allocations,
// stdio-memory): `--name value` flags, then optionally `--` and the server scripts to compare.
// Without scripts they compare raw v2 (bench/raw-server-v2.js) with the weather example.

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

module.exports = { serverArgs };
