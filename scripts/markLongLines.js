'use strict';
// Node prints the whole source line an uncaught error was thrown from above its stack, and a minified
// bundle is a few very long lines: `await createApp(...)` with a BuildError and no catch put 73 kB of
// code on the terminal before the message. Node leaves that line out when it holds the text
// `node-do-not-add-exception-line`, so each long line of a bundle ends with that text in a comment.
// A comment at the end of a line changes no code, no line and no column before it: the bundle runs as
// it did (breaking the lines instead, with esbuild's lineLimit, cost a 2026-07-28 stdio call 2 % more
// instructions; bench/README.md, "Figures of 2026-12-07, evening").
// packages/server/test/uncaught-build-error.e2e.test.ts checks it on every Node the repo tests.

const ts = require('typescript');
const { editBundle } = require('./editBundle');

const MARK = '/*node-do-not-add-exception-line*/';
/** Lines up to this long are printed as they are: a short line of code helps more than it hides. */
const LONG = 200;

/** Ends each line of `file` longer than LONG characters with MARK, where a comment can go. */
function markLongLines(file) {
  editBundle(file, (source, text) => {
    const literals = literalRanges(source);
    const edits = [];
    let lineStart = 0;
    let next = 0; // the first literal that may hold the line's end
    while (lineStart < text.length) {
      const newline = text.indexOf('\n', lineStart);
      const lineEnd = newline < 0 ? text.length : newline;
      if (lineEnd - lineStart > LONG) {
        while (next < literals.length && literals[next][1] <= lineEnd) next++;
        const inside = next < literals.length && literals[next][0] < lineEnd ? literals[next] : undefined;
        // A line that ends inside a string or template is marked just before that literal starts; one
        // that starts inside it too holds no code.
        if (!inside) edits.push({ at: lineEnd, remove: 0, parts: [MARK] });
        else if (inside[0] >= lineStart) edits.push({ at: inside[0], remove: 0, parts: [MARK] });
      }
      lineStart = lineEnd + 1;
    }
    return edits;
  });
}

/** The [start, end) of each string, template and regular expression token of `source`, in order. */
function literalRanges(source) {
  const ranges = [];
  const visit = (node) => {
    if (ts.isLiteralKind(node.kind) || ts.isTemplateLiteralKind(node.kind)) ranges.push([node.getStart(source), node.end]);
    else ts.forEachChild(node, visit);
  };
  visit(source);
  return ranges.sort((a, b) => a[0] - b[0]);
}

module.exports = { markLongLines };
