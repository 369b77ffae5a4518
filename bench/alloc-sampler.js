'use strict';
// Preload for bench/start-allocations.js (`node -r bench/alloc-sampler.js <server>`): samples the
// heap allocations of the whole process with V8's sampling heap profiler and, at exit, writes to
// ALLOC_SAMPLER_OUT a JSON map of owner -> bytes. An owner is the innermost frame's module: for a
// Toolwright bundle the module inside it (`core dist/schema/dtoSchema.js`), for a package its file
// (`zod/v4/core/schemas.cjs`); allocations made by Node's own code (module loading, streams) go to the
// innermost user frame that called it, so a require() counts for the module that asked. With
// ALLOC_SAMPLER_LIVE=1 only what is still alive at exit is counted; otherwise every allocation.
const inspector = require('node:inspector');
const fs = require('node:fs');

const session = new inspector.Session();
session.connect();
session.post('HeapProfiler.enable');
const live = process.env.ALLOC_SAMPLER_LIVE === '1';
session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: !live, includeObjectsCollectedByMinorGC: !live });

/** For each bundle file, its modules' start offsets per line: `"dist/x.js":(function(` marks one. */
const modulesOf = new Map();
function bundleModuleAt(file, line, column) {
  let lines = modulesOf.get(file);
  if (!lines) {
    lines = fs
      .readFileSync(file, 'utf8')
      .split('\n')
      .map((text) => [...text.matchAll(/"((?:packages\/[^/"]+\/)?dist\/[^"]+\.js)":\(?function/g)].map((m) => [m.index, m[1]]));
    modulesOf.set(file, lines);
  }
  for (let l = line; l >= 0; l--) {
    const marks = lines[l] ?? [];
    for (let k = marks.length - 1; k >= 0; k--) if (l < line || marks[k][0] <= column) return marks[k][1].replace(/^packages\/[^/]+\//, '');
  }
  return '(bundle top level)';
}

function ownerOf(frame, parent) {
  const url = frame.url.startsWith('file://') ? frame.url.slice('file://'.length) : frame.url;
  if (!url || url.startsWith('node:') || url === __filename) return parent;
  const bundle = /@toolwright\/([^/]+)\/bundle\/([^/]+)$/.exec(url) ?? /packages\/([^/]+)\/bundle\/([^/]+)$/.exec(url);
  if (bundle) return `@toolwright/${bundle[1]} ${/^(all|lazy|web|extensions)\.js$/.test(bundle[2]) ? bundleModuleAt(url, frame.lineNumber, frame.columnNumber) : `bundle/${bundle[2]}`}`;
  const pkg = /node_modules\/(.+)$/.exec(url);
  return pkg ? pkg[1] : url;
}

process.on('exit', () => {
  session.post('HeapProfiler.stopSampling', (error, result) => {
    if (error) throw error;
    const bytes = {};
    const walk = (node, parent) => {
      const owner = ownerOf(node.callFrame, parent);
      bytes[owner] = (bytes[owner] ?? 0) + node.selfSize;
      for (const child of node.children) walk(child, owner);
    };
    walk(result.profile.head, '(no user frame)');
    fs.writeFileSync(process.env.ALLOC_SAMPLER_OUT, JSON.stringify(bytes));
  });
});
