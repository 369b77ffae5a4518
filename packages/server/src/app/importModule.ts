/**
 * `import()`, in a module of its own. The compile cache leaves a module that calls `import()`
 * to Node (see `callsImport`); with the call here, the rest of the package's bundle is
 * cached. scripts/bundle-packages.js keeps this file out of `bundle/all.js`.
 */
export function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}
