/** npm's rules for a package name (new packages): lowercase, URL-safe, at most 214 characters. */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** Returns why `name` cannot be a project name, or undefined when it can. */
export function validateProjectName(name: string): string | undefined {
  if (name.length === 0) return 'the name is empty';
  if (name.length > 214) return `the name is ${name.length} characters long; npm allows at most 214`;
  if (name !== name.toLowerCase()) return `npm package names are lowercase: try '${name.toLowerCase()}'`;
  if (!NPM_NAME.test(name)) {
    return "use lowercase letters, digits, '-', '.', '_' or '~', optionally scoped as '@scope/name', starting with a letter or digit";
  }
  if (!/[a-z0-9]/.test(name.replace(/^@[^/]+\//, ''))) return 'the name needs at least one letter or digit';
  return undefined;
}
