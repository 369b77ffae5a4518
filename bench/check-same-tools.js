#!/usr/bin/env node
'use strict';
// Connects to the raw server and the Toolwright server, lists their tools and
// reports differences in tool names and inputSchema. Exit 1 if they differ.
//
// By default schemas are compared after normalisation: local $refs
// (#/$defs/X, #/definitions/X) are inlined, root $defs/definitions dropped,
// and `required` compared as a set. `--strict` compares the JSON exactly
// (key order still ignored). Other tool fields (description, title,
// annotations…) are reported as notes and do not affect the exit code.

const { targetsFromEnv, checkTargetExists, connect, disconnect } = require('./lib.js');

const strict = process.argv.includes('--strict');

function inlineRefs(schema) {
  const defs = { ...(schema.$defs || {}), ...(schema.definitions || {}) };
  const seen = new Set();
  const walk = (node) => {
    if (Array.isArray(node)) return node.map(walk);
    if (node === null || typeof node !== 'object') return node;
    if (typeof node.$ref === 'string') {
      const m = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(node.$ref);
      if (m && defs[m[1]] && !seen.has(m[1])) {
        seen.add(m[1]);
        const { $ref, ...rest } = node;
        const out = walk({ ...defs[m[1]], ...rest });
        seen.delete(m[1]);
        return out;
      }
    }
    const out = {};
    for (const [k, v] of Object.entries(node)) out[k] = walk(v);
    return out;
  };
  const { $defs, definitions, ...root } = schema;
  return walk(root);
}

function normalise(schema) {
  const s = strict ? schema : inlineRefs(schema);
  const walk = (node, key) => {
    if (Array.isArray(node)) {
      const arr = node.map((v) => walk(v));
      return !strict && key === 'required' ? [...arr].sort() : arr;
    }
    if (node === null || typeof node !== 'object') return node;
    const out = {};
    for (const k of Object.keys(node).sort()) out[k] = walk(node[k], k);
    return out;
  };
  return walk(s);
}

/** List differences between two JSON values as "path: a vs b" lines. */
function diff(a, b, path = '', out = []) {
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  const isObj = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isObj(a) && isObj(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      diff(a[k], b[k], `${path}/${k}`, out);
    }
  } else {
    out.push(`${path || '/'}: raw=${JSON.stringify(a)} toolwright=${JSON.stringify(b)}`);
  }
  return out;
}

async function listTools(t) {
  const conn = await connect(t, 'toolwright-bench-check');
  try {
    const tools = [];
    let cursor;
    do {
      const res = await conn.client.listTools(cursor ? { cursor } : {});
      tools.push(...res.tools);
      cursor = res.nextCursor;
    } while (cursor);
    return tools;
  } finally {
    await disconnect(conn);
  }
}

async function main() {
  // Both hand-written servers serve bench/tools.js: compare the first with Toolwright (the last).
  const targets = targetsFromEnv();
  const [rawT, twT] = [targets[0], targets[targets.length - 1]];
  for (const t of [rawT, twT]) {
    const missing = checkTargetExists(t);
    if (missing) {
      console.error(missing);
      process.exit(2);
    }
  }
  const [rawTools, twTools] = [await listTools(rawT), await listTools(twT)];
  const byName = (list) => new Map(list.map((t) => [t.name, t]));
  const raw = byName(rawTools);
  const tw = byName(twTools);
  const problems = [];
  const notes = [];

  for (const name of raw.keys()) if (!tw.has(name)) problems.push(`tool '${name}' missing from toolwright`);
  for (const name of tw.keys()) if (!raw.has(name)) problems.push(`tool '${name}' only in toolwright`);

  for (const [name, r] of raw) {
    const w = tw.get(name);
    if (!w) continue;
    for (const d of diff(normalise(r.inputSchema), normalise(w.inputSchema))) {
      problems.push(`${name} inputSchema ${d}`);
    }
    const { name: _n1, inputSchema: _s1, ...rRest } = r;
    const { name: _n2, inputSchema: _s2, ...wRest } = w;
    for (const d of diff(normalise(rRest), normalise(wRest))) notes.push(`${name} ${d}`);
  }

  console.log(`raw:        ${rawT.line} -> ${[...raw.keys()].join(', ')}`);
  console.log(`toolwright: ${twT.line} -> ${[...tw.keys()].join(', ')}`);
  console.log(`mode: ${strict ? 'strict' : 'normalised ($refs inlined, required as a set)'}`);
  for (const n of notes) console.log(`note: ${n}`);
  if (problems.length === 0) {
    console.log('OK: same tool names and inputSchemas');
    return 0;
  }
  for (const p of problems) console.log(`DIFF: ${p}`);
  console.log(`${problems.length} difference(s)`);
  return 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error('check-same-tools failed:', err);
    process.exit(2);
  },
);
