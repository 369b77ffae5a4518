'use strict';
// Rewrites a bundle that esbuild wrote so that V8 compiles what a start runs together with the
// file, and Node's compile cache (22.1+) holds it. V8 compiles a function when it is first called,
// except a function expression in parentheses, which it compiles with its file; the compile cache
// keeps only what V8 compiled with the file. Two rewrites:
// - each module wrapper, `__commonJS({ "dist/x.js"(exports, module) { ... } })`, becomes
//   `"dist/x.js":(function(exports, module) { ... })`: every module body comes from the cache;
// - each module-level function named in the compile hints (scripts/compile-hints.json: the functions
//   a stdio start and its first calls run, recorded by scripts/record-compile-hints.js) moves to the
//   top of its module as `var f=(function f(...) { ... });`. A function declaration is hoisted to
//   the top of its scope anyway, so the module means the same; the functions a start never runs
//   stay lazy and cost no bytecode.
// The bundle's source map moves with the text (scripts/editBundle.js).

const ts = require('typescript');
const { editBundle } = require('./editBundle');

/**
 * Rewrites `file` (and `file.map`) in place. `hints` maps a module's path in the bundle
 * (`packages/core/dist/x.js`) to the names of its functions to compile with the file.
 */
function compileWithFile(file, hints) {
  editBundle(file, (source, text) => {
    const edits = [];
    let wrappers = 0;
    for (const statement of source.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const { initializer: call } of statement.declarationList.declarations) {
        if (!call || !ts.isCallExpression(call) || call.expression.getText(source) !== '__commonJS') continue;
        const [wrapper] = call.arguments;
        const method = wrapper && ts.isObjectLiteralExpression(wrapper) && wrapper.properties.length === 1 ? wrapper.properties[0] : undefined;
        if (!method || !ts.isMethodDeclaration(method) || !method.body) {
          throw new Error(`${file}: esbuild's module wrapper changed shape (${call.getText(source).slice(0, 80)}...); update scripts/compileWithFile.js.`);
        }
        wrappers++;
        edits.push({ at: method.name.end, remove: 0, parts: [':(function'] }, { at: method.body.end, remove: 0, parts: [')'] });
        const hinted = new Set(hints[JSON.parse(method.name.getText(source))] ?? []);
        const hoisted = method.body.statements.filter((s) => ts.isFunctionDeclaration(s) && s.body && s.name && !s.asteriskToken && hinted.has(s.name.text));
        if (hoisted.length === 0) continue;
        const [first] = method.body.statements;
        const directive = first && ts.isExpressionStatement(first) && ts.isStringLiteral(first.expression) ? first.end : method.body.getStart(source) + 1;
        const parts = [];
        for (const fn of hoisted) {
          const from = fn.getStart(source);
          parts.push(`var ${fn.name.text}=(`, [from, fn.end], ');');
          edits.push({ at: from, remove: fn.end - from, parts: [] });
        }
        edits.push({ at: directive, remove: 0, parts });
      }
    }
    if (wrappers === 0 && text.includes('__commonJS')) throw new Error(`${file}: found no module wrapper to rewrite; update scripts/compileWithFile.js.`);
    return edits;
  });
}

module.exports = { compileWithFile };
