/** `import()` of a file or package named at run time (tool classes named by glob, optional dependencies such as `jose`). */
export function importModule(specifier: string): Promise<unknown> {
  return import(specifier);
}
