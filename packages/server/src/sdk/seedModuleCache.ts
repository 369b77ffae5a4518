import Module from 'node:module';

// Node's CommonJS module cache, filled by hand.

/**
 * Puts `exports` in Node's module cache as the loaded module `file`, so a later `require` of
 * that file returns them without reading or running it. Returns false, changing nothing, when
 * the file is already loaded (or the cache is not Node's, as under jest).
 */
export function seedModuleCache(file: string, exports: object): boolean {
  if (require.cache[file]) return false;
  const standIn = new Module(file);
  standIn.filename = file;
  standIn.loaded = true;
  standIn.exports = exports;
  require.cache[file] = standIn;
  return require.cache[file] === standIn;
}
