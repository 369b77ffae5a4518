'use strict';
// Jest runtime for the in-process projects (jest.config.js `runtime`). Jest gives each test file a
// fresh module registry, so every file loads the SDK, zod and our sources again. Jest compiles each
// module with vm.compileFunction, which V8's in-process compilation cache does not serve; a
// vm.Script of the same text is served from it, lazily compiled functions included. This runtime
// compiles modules as scripts, so the second and later test files of a worker reuse the code
// the first one compiled. Measured on 30 server suites run in band: 19.2 s -> 16.1 s
// (bench/README.md, "Figures of 2026-12-07, morning"). Modules stay separate: only compiled code is shared, never
// a module's state.
//
// It reaches into jest-runtime's module executor. If a Jest release moves that, the runtime
// says so once and compiles as Jest does; tests run the same either way.
const Runtime = require('jest-runtime').default;
const { Script } = require('node:vm');

let warned = false;

class ReusedCompileRuntime extends Runtime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    if (typeof executor?.compile !== 'function' || !Array.isArray(executor.injectedModuleParameters) || typeof executor.environment?.getVmContext !== 'function') {
      if (!warned)
        process.stderr.write("scripts/jest/reused-compile-runtime.js: jest-runtime's module executor changed; modules compile as Jest does (slower). Update this file for the Jest release.\n");
      warned = true;
      return;
    }
    const compileAsJest = executor.compile.bind(executor);
    const head = `(function (${executor.injectedModuleParameters.join(', ')}) {`;
    executor.compile = (source, filename) => {
      const context = executor.environment.getVmContext();
      // A dynamic import() needs the callback only Jest's own compile passes (it keeps the script out of V8's cache).
      if (!context || source.includes('import(')) return compileAsJest(source, filename);
      try {
        // The wrapper shares the first line, so line numbers in stack traces stay the file's own.
        return new Script(`${head}${source}\n})`, { filename }).runInContext(context);
      } catch (error) {
        // Jest's compile reports a syntax error with its hints.
        if (error instanceof SyntaxError) return compileAsJest(source, filename);
        throw error;
      }
    };
  }
}

module.exports = ReusedCompileRuntime;
