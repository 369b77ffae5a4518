'use strict';
// Edits a bundle that esbuild wrote, in place, and moves its source map with the text, so that
// `--enable-source-maps` still leads every frame to its line in src/. The callers
// (scripts/compileWithFile.js, scripts/markLongLines.js) say what to change; this file parses the
// bundle and applies the change.

const fs = require('node:fs');
const ts = require('typescript');

/**
 * Rewrites `file` (and `file.map`) with the edits `editsOf(source, text)` returns: at `at`, `remove`
 * characters of the text give way to `parts` (strings, and [from, to) ranges of the old text).
 */
function editBundle(file, editsOf) {
  const text = fs.readFileSync(file, 'utf8');
  // TypeScript's parser reads a dot at the end of a line as an unfinished member access (an editor's
  // half-typed `value.`), though JavaScript continues it on the next line, as a minifier may write it.
  // It parses a copy with those breaks as spaces: the same length, so the same positions, and the edits
  // apply to the text as esbuild wrote it.
  const source = ts.createSourceFile(file, text.replace(/\.\n/g, '. '), ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  if (source.parseDiagnostics.length > 0) {
    const [first] = source.parseDiagnostics;
    throw new Error(`${file}: TypeScript cannot parse the bundle at ${first.start} (${ts.flattenDiagnosticMessageText(first.messageText, ' ')}); update scripts/editBundle.js.`);
  }
  const edits = editsOf(source, text);
  if (edits.length === 0) return;
  const { output, placed } = applyEdits(text, edits);
  fs.writeFileSync(file, output);
  const mapFile = `${file}.map`;
  const map = JSON.parse(fs.readFileSync(mapFile, 'utf8'));
  map.mappings = moveMappings(map.mappings, text, output, placed);
  fs.writeFileSync(mapFile, JSON.stringify(map));
}

/** The edited text, and where each kept range of the old text now starts: [oldFrom, oldTo, newFrom], by oldFrom. */
function applyEdits(text, edits) {
  // Insertions at one place keep their order; the removal there (if any) comes after them.
  const sorted = edits.map((e, i) => ({ ...e, i })).sort((a, b) => a.at - b.at || a.remove - b.remove || a.i - b.i);
  let output = '';
  const placed = [];
  const keep = (from, to) => {
    if (to > from) placed.push([from, to, output.length]);
    output += text.slice(from, to);
  };
  let from = 0;
  for (const { at, remove, parts } of sorted) {
    keep(from, at);
    for (const part of parts) {
      if (typeof part === 'string') output += part;
      else keep(part[0], part[1]);
    }
    from = at + remove;
  }
  keep(from, text.length);
  placed.sort((a, b) => a[0] - b[0]);
  return { output, placed };
}

/** A source map's `mappings` for `output`: each segment goes where its text went. */
function moveMappings(mappings, text, output, placed) {
  const oldLines = lineStarts(text);
  const newLines = lineStarts(output);
  const segments = [];
  const state = [0, 0, 0, 0, 0];
  mappings.split(';').forEach((line, lineIndex) => {
    state[0] = 0;
    if (line === '') return;
    for (const segment of line.split(',')) {
      const fields = readVlqs(segment);
      fields.forEach((value, k) => (state[k] += value));
      const at = newOffset(placed, oldLines[lineIndex] + state[0]);
      if (at !== undefined) segments.push([at, ...state.slice(1, fields.length)]);
    }
  });
  segments.sort((a, b) => a[0] - b[0]);
  const lines = newLines.map(() => []);
  const last = [0, 0, 0, 0, 0];
  let line = 0;
  for (const [at, ...rest] of segments) {
    while (line + 1 < newLines.length && newLines[line + 1] <= at) line++;
    const column = at - newLines[line];
    const fields = [column, ...rest];
    if (lines[line].length === 0) last[0] = 0;
    lines[line].push(fields.map((value, k) => writeVlq(value - last[k])).join(''));
    fields.forEach((value, k) => (last[k] = value));
  }
  return lines
    .map((l) => l.join(','))
    .join(';')
    .replace(/;+$/, '');
}

function lineStarts(text) {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** Where old offset `at` is in the output, if its text was kept. */
function newOffset(placed, at) {
  let low = 0;
  let high = placed.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const [from, to, start] = placed[mid];
    if (at < from) high = mid - 1;
    else if (at >= to) low = mid + 1;
    else return start + (at - from);
  }
  return undefined;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The base64 VLQ numbers of one source map segment. */
function readVlqs(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = BASE64.indexOf(char);
    if (digit < 0) throw new Error(`not a source map segment: ${JSON.stringify(segment)}`);
    value += (digit & 31) << shift;
    shift += 5;
    if ((digit & 32) === 0) {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

function writeVlq(number) {
  let value = number < 0 ? (-number << 1) | 1 : number << 1;
  let out = '';
  do {
    let digit = value & 31;
    value >>>= 5;
    if (value > 0) digit |= 32;
    out += BASE64[digit];
  } while (value > 0);
  return out;
}

module.exports = { editBundle };
